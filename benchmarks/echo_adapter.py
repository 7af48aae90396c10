"""A trivial batch adapter for ``linguo verify --impl ... --batch``.

It accepts the hello line (``{"ready": true}``) and then answers every
request line by echoing the line back, so the cases fail, but the figure it
serves (cases per second through the batch protocol) measures linguo's side
of the protocol and not an implementation's rules.
"""

import sys


def main() -> None:
    out = sys.stdout
    first = True
    for line in sys.stdin:
        if first:
            first = False
            out.write('{"ready": true, "implementation": "echo"}\n')
        else:
            out.write(line if line.endswith("\n") else line + "\n")
        out.flush()


if __name__ == "__main__":
    main()
