"""A referee that relays to another: python3 relay.py LOG FEATURES REFEREE.py.

It logs the op of every request to the file LOG, one a line, and answers
hello with the features FEATURES (a comma-separated list, "-" for none)
in place of the other referee's: a test sees which requests the judge
sends to a referee that declares which features."""

import json
import subprocess
import sys

log_path, features, referee = sys.argv[1], sys.argv[2], sys.argv[3]
child = subprocess.Popen([sys.executable, referee], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
with open(log_path, "a") as log:
    for line in sys.stdin:
        req = json.loads(line)
        log.write(req.get("op", "") + "\n")
        log.flush()
        child.stdin.write(line)
        child.stdin.flush()
        resp = child.stdout.readline()
        if req.get("op") == "hello":
            r = json.loads(resp)
            r.pop("features", None)
            if features != "-":
                r["features"] = features.split(",")
            resp = json.dumps(r) + "\n"
        sys.stdout.write(resp)
        sys.stdout.flush()
