import Heading
import IMU
import Testing

/// All 48 signed axis permutations.
private let allMaps: [AxisMap] = {
    let permutations: [[AxisMap.Axis]] = [
        [.x, .y, .z], [.x, .z, .y], [.y, .x, .z], [.y, .z, .x], [.z, .x, .y], [.z, .y, .x],
    ]
    var maps: [AxisMap] = []
    for axes in permutations {
        for signs in 0..<8 {
            let terms = (0..<3).map { AxisMap.Term(axes[$0], negated: signs >> $0 & 1 == 1) }
            maps.append(try! AxisMap(x: terms[0], y: terms[1], z: terms[2]))
        }
    }
    return maps
}()

@Suite("AxisMap: signed axis permutations, chip axes to body axes", .timeLimit(.minutes(5)))
struct AxisMapTests {
    @Test("\"-y,-x,-z\" takes chip (1, 2, 3) to body (−2, −1, −3)")
    func applies() throws {
        let map = try AxisMap(parsing: "-y,-x,-z")
        #expect(map.apply(Vector3(1, 2, 3)) == Vector3(-2, -1, -3))
        #expect(map.description == "-y,-x,-z")
        #expect(try AxisMap(parsing: "x,y,z") == .identity)
    }

    @Test(
        "spaces, case and a leading + are accepted",
        arguments: [" -Y , -x,-Z ", "-y,-X,\t-z", "-y,-x,-z"])
    func lenientSpelling(text: String) throws {
        #expect(try AxisMap(parsing: text).description == "-y,-x,-z")
        #expect(try AxisMap(parsing: "+x,+y,z") == .identity)
    }

    @Test(
        "malformed maps are rejected with a message naming the text and the fault",
        arguments: [
            (
                "x,y",
                "axis map \"x,y\": expected three comma-separated terms for body x, y, z (e.g. \"x,-y,-z\"), found 2"
            ),
            ("", "axis map \"\": expected three comma-separated terms for body x, y, z (e.g. \"x,-y,-z\"), found 1"),
            (
                "x,-y,-z,",
                "axis map \"x,-y,-z,\": expected three comma-separated terms for body x, y, z "
                    + "(e.g. \"x,-y,-z\"), found 4"
            ),
            ("x,w,z", "axis map \"x,w,z\": \"w\" is not an axis; use x, y or z, optionally with - or +"),
            ("x,--y,z", "axis map \"x,--y,z\": \"--y\" is not an axis; use x, y or z, optionally with - or +"),
            ("x, ,z", "axis map \"x, ,z\": \"\" is not an axis; use x, y or z, optionally with - or +"),
            (
                "x,-x,z",
                "axis map \"x,-x,z\": chip axis x is used more than once; each of x, y, z must appear exactly once"
            ),
            (
                "Z, y, z",
                "axis map \"Z, y, z\": chip axis z is used more than once; each of x, y, z must appear exactly once"
            ),
        ])
    func rejects(text: String, message: String) {
        let error = #expect(throws: AxisMap.ParseError.self) { try AxisMap(parsing: text) }
        #expect(error?.description == message)
    }

    @Test("the memberwise form rejects a repeated axis too")
    func memberwiseRejectsRepeats() {
        let error = #expect(throws: AxisMap.ParseError.self) {
            try AxisMap(x: .init(.y), y: .init(.y, negated: true), z: .init(.z))
        }
        #expect(error == .repeatedAxis(text: "y,-y,z", axis: .y))
    }

    @Test("all 48 maps: inverse undoes, description parses back, matrix agrees, half are rotations")
    func algebra() throws {
        #expect(Set(allMaps).count == 48)
        let v = Vector3(0.25, -1.5, 4)
        var rotations = 0
        for map in allMaps {
            #expect(map.inverse.apply(map.apply(v)) == v, "\(map)")
            #expect(map.apply(map.inverse.apply(v)) == v, "\(map)")
            #expect(try AxisMap(parsing: map.description) == map)
            #expect(map.matrix * v == map.apply(v), "\(map)")
            #expect(abs(map.matrix.determinant) == 1)
            if map.isRotation { rotations += 1 }
        }
        #expect(rotations == 24)
    }

    @Test("followed(by:) applies one map, then the other")
    func composition() throws {
        let v = Vector3(1, 2, 3)
        for first in allMaps.prefix(12) {
            for second in allMaps.suffix(12) {
                #expect(first.followed(by: second).apply(v) == second.apply(first.apply(v)), "\(first) then \(second)")
            }
        }
        #expect(try AxisMap(parsing: "x,-y,-z").followed(by: AxisMap(parsing: "x,-y,-z")) == .identity)
    }
}
