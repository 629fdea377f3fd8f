// The yardstick for `make bench`: GeographicLib's own C++ Geodesic::Inverse (Debian's
// libgeographiclib-dev), timed exactly as `waypoint-bench geodesic FILE` times ours: the first
// four columns of every data row of FILE, repeated until at least one second has passed.
// Prints `geographiclib.inverse.file NS ns/op`.
#include <GeographicLib/Geodesic.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: geographiclib-inverse FILE\n");
        return 64;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "geographiclib-inverse: cannot read %s\n", argv[1]);
        return 66;
    }
    std::vector<double> points;  // lat1 lon1 lat2 lon2, flattened
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        double values[4];
        if (fields >> values[0] >> values[1] >> values[2] >> values[3])
            points.insert(points.end(), values, values + 4);
    }
    const auto& geodesic = GeographicLib::Geodesic::WGS84();
    const size_t count = points.size() / 4;
    if (count == 0) {
        std::fprintf(stderr, "geographiclib-inverse: no rows in %s\n", argv[1]);
        return 65;
    }
    double sink = 0;
    size_t calls = 0;
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = std::chrono::duration<double>(0);
    while (elapsed.count() < 1.0) {
        for (size_t i = 0; i < count; ++i) {
            double s12, azi1, azi2;
            geodesic.Inverse(points[4 * i], points[4 * i + 1], points[4 * i + 2], points[4 * i + 3], s12, azi1, azi2);
            sink += s12 + azi1 + azi2;
        }
        calls += count;
        elapsed = std::chrono::steady_clock::now() - start;
    }
    std::printf("geographiclib.inverse.file %.0f ns/op\n", elapsed.count() * 1e9 / double(calls));
    std::fprintf(stderr, "(checksum %g)\n", sink);
    return 0;
}
