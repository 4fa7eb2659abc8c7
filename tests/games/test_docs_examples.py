"""The worked examples of docs/games.md run as doctests, so the page cannot
drift from the code."""

import doctest
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "games.md"
SECTION = "## Hand values, betting, pots, rake: worked examples"


def test_the_worked_examples_in_docs_games_md_hold():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) >= 5, "the worked examples are missing from docs/games.md"
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "docs/games.md", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 20
