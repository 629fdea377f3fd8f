#!/usr/bin/env python3
"""broad-loo.py BENCH [--dir DIR] [--grid NAME=V1,V2,... ...] [--jobs N] [--tsv FILE]

Judges the heading's settings by leave-one-out on BROAD's recordings (real IMU, optical truth;
DIR/README.md): for each trial, the grid point with the best score on the other trials is
chosen, and the trial is scored with it. The figure this prints per trial is that held-out
score, never one tuned on the trial itself. BENCH is `waypoint-bench` (release); each replay is
`waypoint-bench heading NAME=VALUE ... < RECORDING` (the gyroscope's path, as recorded).

The score of a grid point on a set of trials is the mean of its two group means (undisturbed,
disturbed) of heading RMS, so that neither group outweighs the other by its count.
Metric per trial as ../shared/tools/broad_score.py: err = wrap(true heading - ref - D) over the
samples BROAD's mask evaluates, rms over those with a heading; nohead the share without one.

Without --grid the grid is the one the defaults were chosen from (GRID below). Python standard
library only. Dev tooling: not run by `make test` (it needs the 12 trials of ../shared/data).
"""
import gzip, itertools, json, math, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "..", "..", "shared", "data", "broad")

# Each setting's candidates: the default first. Physical units; see HeadingCorrection.Settings
# and HeadingEstimator.Settings for what each means.
GRID = {
    "clean-field-error-degrees": ["3", "1.5", "6"],
    "correction-seconds": ["10", "5", "20"],
    "strength-tolerance": ["0.1", "0.07", "0.15"],
    "dip-tolerance-degrees": ["10", "7", "15"],
}


def wrap(a):
    return (a + 180.0) % 360.0 - 180.0


def load_trial(d, name):
    with gzip.open(os.path.join(d, name + ".ref.tsv.gz"), "rt") as f:
        next(f)
        ref = []
        for line in f:
            p = line.split("\t")
            ref.append((float(p[1]), p[3] == "1"))
    with gzip.open(os.path.join(d, name + ".jsonl.gz"), "rt") as f:
        text = f.read()
    return ref, text


def score(bench, point, trial, declination):
    ref, text = trial
    p = subprocess.run([bench, "heading"] + ["%s=%s" % kv for kv in point], input=text,
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise SystemExit("waypoint-bench heading failed: " + p.stderr.strip())
    rows = [json.loads(l) for l in p.stdout.splitlines()]
    if len(rows) != len(ref):
        raise SystemExit("%d replay lines for %d reference rows" % (len(rows), len(ref)))
    errs, n_eval, n_no = [], 0, 0
    for (r, ev), row in zip(ref, rows):
        if not ev:
            continue
        n_eval += 1
        h = row.get("heading")
        if h is None or row.get("state") == "no-heading":
            n_no += 1
        if h is not None:
            errs.append(wrap(h - r - declination))
    rms = math.sqrt(sum(e * e for e in errs) / len(errs)) if errs else float("inf")
    return rms, n_no / max(n_eval, 1)


def objective(results, point, names, group):
    means = []
    for g in ("undisturbed", "disturbed"):
        xs = [results[(point, n)][0] for n in names if group[n] == g]
        if xs:
            means.append(sum(xs) / len(xs))
    return sum(means) / len(means)


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    bench = args.pop(0)
    d, grid, jobs, tsv = DEFAULT_DIR, None, 2, None
    while args:
        a = args.pop(0)
        if a == "--dir": d = args.pop(0)
        elif a == "--grid":
            name, values = args.pop(0).split("=", 1)
            grid = grid or {}
            grid[name] = values.split(",")
        elif a == "--jobs": jobs = int(args.pop(0))
        elif a == "--tsv": tsv = args.pop(0)
        else:
            print("unknown argument " + a, file=sys.stderr)
            return 2
    grid = grid or GRID
    meta = json.load(open(os.path.join(d, "meta.json")))
    declination = meta["model"]["declination"]
    names = sorted(meta["trials"])
    group = {n: "undisturbed" if "undisturbed" in meta["trials"][n]["groups"] else "disturbed" for n in names}
    trials = {n: load_trial(d, n) for n in names}
    keys = list(grid)
    points = [tuple(zip(keys, values)) for values in itertools.product(*(grid[k] for k in keys))]
    default = points[0]
    work = [(p, n) for p in points for n in names]
    with ThreadPoolExecutor(jobs) as pool:
        scores = list(pool.map(lambda w: score(bench, w[0], trials[w[1]], declination), work))
    results = dict(zip(work, scores))

    peers = {}
    with open(os.path.join(d, "peers.tsv")) as f:
        hdr = f.readline().rstrip("\n").split("\t")
        for line in f:
            p = dict(zip(hdr, line.rstrip("\n").split("\t")))
            if p["method"] == "vqf":
                peers[p["trial"]] = float(p["rms"])

    def label(point):
        return " ".join("%s=%s" % kv for kv in point)

    print("leave-one-out over %d trials, %d grid points (%s)" % (len(names), len(points), ", ".join(keys)))
    print("%-44s %8s %8s %8s %7s  %s" % ("trial (held out)", "held-out", "default", "vqf", "nohead", "chosen on the other trials"))
    held = {}
    for n in names:
        others = [m for m in names if m != n]
        best = min(points, key=lambda p: objective(results, p, others, group))
        held[n] = results[(best, n)]
        print("%-44s %8.2f %8.2f %8.2f %6.1f%%  %s" % (n, held[n][0], results[(default, n)][0], peers.get(n, float("nan")),
                                                    100 * held[n][1], label(best)))
    for g in ("undisturbed", "disturbed"):
        ns = [n for n in names if group[n] == g]
        mean = lambda xs: sum(xs) / len(xs)
        print("  %-11s held-out %5.2f  default %5.2f  vqf %5.2f  nohead %4.1f%%" % (
            g, mean([held[n][0] for n in ns]), mean([results[(default, n)][0] for n in ns]),
            mean([peers[n] for n in ns]), 100 * mean([held[n][1] for n in ns])))
    best_all = min(points, key=lambda p: objective(results, p, names, group))
    print("best on all %d trials (in-sample, for the defaults): %s" % (len(names), label(best_all)))
    if tsv:
        with open(tsv, "w") as f:
            f.write("\t".join(keys) + "\ttrial\trms\tnohead\n")
            for (p, n), (rms, no) in sorted(results.items()):
                f.write("\t".join(v for _, v in p) + "\t%s\t%.4f\t%.4f\n" % (n, rms, no))
    return 0


if __name__ == "__main__":
    sys.exit(main())
