# Instructions by opcode in the SASS of the stage as one product (cuobjdump -sass output as argv[1]).
import re, sys, collections
txt = open(sys.argv[1]).read()
# the stage kernel's function block
blocks = re.split(r"\n\s+Function : ", txt)
for b in blocks[1:]:
    name = b.split("\n", 1)[0]
    if "TagTensorStageMerged" not in name: continue
    ins = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)", b)
    ops = collections.Counter(o.split(".")[0] for _, o in ins)
    print(sys.argv[1].split("/")[-1], "instructions", len(ins))
    print("  ", " ".join(f"{k}={v}" for k, v in ops.most_common(24)))
