#!/usr/bin/env python3
"""closed_pipe.py - runs a command whose stdout is a pipe nobody reads
(its read end closed before the start, as after `| head -1` stopped), so
that every write fails with EPIPE whatever the output's size and timing.

usage: closed_pipe.py ERR_FILE COMMAND [ARG]...
Writes the command's stderr to ERR_FILE; exits with its status (128 + N
when signal N ended it, as a shell says).
"""
import os
import subprocess
import sys

r, w = os.pipe()
os.close(r)
with open(sys.argv[1], "wb") as err:
    st = subprocess.run(sys.argv[2:], stdout=w, stderr=err).returncode
sys.exit(st if st >= 0 else 128 - st)
