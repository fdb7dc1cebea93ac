# The tuner's trials of the stage as one product in a tuning report (dgk tune --report): per order,
# the fastest shape with the flux gathered ahead (scratch) and in the lift's k-steps (gather=steps).
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    print(f"# {d['case']}, {d['backend']}, {d['precision']}, {d['elements']} elements ({path.split('/')[-1]})")
    for o in d["orders"]:
        best = {}
        for t in o["trials"]:
            s = t["tuning"]
            if "product=merged" not in s or t["part"] != "volume+surface+lift+update":
                continue
            k = "steps" if "gather=steps" in s else "ahead"
            n = best.setdefault(k, [0, None])
            n[0] += 1
            if n[1] is None or t["seconds"] < n[1]["seconds"]:
                n[1] = t
        for k in ("ahead", "steps"):
            if k in best:
                cnt, t = best[k]
                print(f"N = {o['order']}  {k:5}  {cnt:3d} trials  fastest {t['seconds']*1e3:.4f} ms  {t['tuning']}")
