"""A referee that relays to another: python3 relay.py LOG FEATURES REFEREE.py [ANSWERS].

It logs the op of every request to the file LOG, one a line, and answers
hello with the features FEATURES (a comma-separated list, "-" for none)
in place of the other referee's: a test sees which requests the judge
sends to a referee that declares which features. ANSWERS spoils the
answers its statuses give ahead: "astray" adds " 9" to each, "command"
answers the command line "DropDisc 3", "lines" ends each with a
newline."""

import json
import subprocess
import sys

log_path, features, referee = sys.argv[1], sys.argv[2], sys.argv[3]
spoil = sys.argv[4] if len(sys.argv) > 4 else ""
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
        r = json.loads(resp)
        answers = r.get("status", {}).get("answers")
        if spoil and answers:
            if spoil == "command":
                answers["DropDisc 3"] = "1"
            for line in answers:
                answers[line] += {"astray": " 9", "lines": "\n"}.get(spoil, "")
            resp = json.dumps(r) + "\n"
        sys.stdout.write(resp)
        sys.stdout.flush()
