"""Print every installed distribution of this interpreter as JSON {name: version}.

Run as a plain script by the sandbox's python (`automind.environment`), so it uses the standard library
only and imports nothing from automind: the answer describes that interpreter, not the caller's.
"""

import json
import sys
from importlib.metadata import distributions


def main() -> None:
    found: dict[str, str] = {}
    for dist in distributions():
        name = (dist.metadata["Name"] or "").strip()
        if name:
            found.setdefault(name.lower().replace("_", "-"), dist.version)
    json.dump({"python": sys.version.split()[0], "distributions": found}, sys.stdout)


if __name__ == "__main__":
    main()
