"""`python -m modtool` and the `modtool` command start here.

The garbage collector is paused while the command line and the library are imported: the
objects an import makes live to the end, so its rounds over them at start-up (7% of the
instructions of a count of the example Mafia game) find nothing to free.
`modtool.cli.app.collect_garbage_again` starts it once the command begins its real work.
"""

import gc

gc.disable()  # before the imports below, which is why they are not at the top

from .cli import main as run  # noqa: E402


def main() -> None:
    run()


if __name__ == "__main__":
    main()
