"""A shell's job control, for tests that stop a game with Ctrl-Z (run as a script:
``python tests/job_shell.py PID_FILE ARGV...``).

It starts ``ARGV`` in a process group of its own in the terminal's foreground, as an
interactive shell starts a job (an orphaned process group is never stopped by
SIGTSTP), writes that process's pid to ``PID_FILE`` and exits with its status."""

import contextlib
import os
import signal
import sys

pid_file, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.tcsetpgrp(0, os.getpgrp())
    signal.signal(signal.SIGTTOU, signal.SIG_DFL)
    os.execv(argv[0], argv)
with contextlib.suppress(OSError):  # the child may have set it already
    os.setpgid(pid, pid)
with open(pid_file + ".part", "w") as out:
    out.write(str(pid))
os.rename(pid_file + ".part", pid_file)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
