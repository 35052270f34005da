"""The phone page renders every text exactly as the Pi does (``companion/net/static/texts.js`` against
``companion/app/i18n.py``): the same words, plural forms and digit grouping for every text of every
catalogue in every language; and each catalogue's plural rule agrees with the browser's own CLDR data
(``Intl.PluralRules``), so a rule mistyped in a catalogue is caught."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, chromium
from harness import rig

from companion.app.i18n import LANGUAGES, catalogue, render, template_parts, template_selects

NUMBERS = [0, 1, 2, 3, 5, 11, 21, 101, 1000, 12345, 1000000]
FRONT_ENDS = ("companion.net", "ui", "hardware")


def cases() -> list[dict[str, Any]]:
    """Every text of every catalogue with parameters: a few numbers for plural parameters, a word and
    a number for the others; each with what the Pi renders."""
    found: list[dict[str, Any]] = []
    texts = catalogue(FRONT_ENDS)
    for lang in LANGUAGES:
        for code, template in sorted(texts[lang].items()):
            names, plurals = template_parts(template)
            if not names:
                continue
            samples: list[dict[str, Any]] = [{name: f"<{name}>" for name in names}]
            for n in NUMBERS:
                samples.append({name: (n if name in plurals else 7) for name in names})
            for name, ids in template_selects(template).items():  # each branch of a select
                samples += [{**samples[0], name: value} for value in sorted(ids)]
            samples.append({})  # missing parameters stay as {name}
            for params in samples:
                found.append({"lang": lang, "code": code, "params": params, "want": render(template, params, lang)})
    return found


@pytest.mark.slow
def test_the_phone_page_renders_every_text_like_the_pi(tmp_path: Path) -> None:
    wanted = cases()
    assert len({c["code"] for c in wanted}) > 150
    assert any("plural" in catalogue(FRONT_ENDS)["fr"][c["code"]] for c in wanted)
    assert any(c["want"].startswith("Aucune ligne de bus") for c in wanted)  # a select's branch

    async def scenario() -> None:
        async with chromium() as browser, rig(tmp_path, "scotland_yard", {"mister_x": "X", "detectives": ["D"]}) as r:
            page = await (await browser.new_context(viewport=PHONE)).new_page()
            await page.goto(r.base + "/s/" + r.tokens(["d1"])["d1"])
            await page.wait_for_selector("#status.connected", timeout=30_000)
            # the touchscreen's and the hardware's texts too (a plain dict: the catalogue reads each
            # language on first use and cannot be handed to the browser as it is)
            texts = {lang: dict(catalogue(FRONT_ENDS)[lang]) for lang in LANGUAGES}
            for lang in LANGUAGES:  # what the page loads carries the language's plural rule and grouping
                async with r.session.get(f"{r.base}/texts/{lang}.json") as resp:
                    served = await resp.json()
                assert {k: v for k, v in served.items() if k.startswith("language.")} == {
                    k: v for k, v in texts[lang].items() if k.startswith("language.")
                }
            got = await page.evaluate(
                """async ([cases, texts]) => {
                    const m = await import("/static/texts.js");
                    const rules = Object.fromEntries(Object.entries(texts).map(([l, t]) => [l, m.language(t)]));
                    return cases.map((c) => m.render(texts[c.lang][c.code], c.params, rules[c.lang]));
                }""",
                [wanted, texts],
            )
            assert len(got) == len(wanted)
            wrong = [
                (c["lang"], c["code"], c["params"], c["want"], g)
                for c, g in zip(wanted, got, strict=True)
                if g != c["want"]
            ]
            assert wrong == []
            # The catalogues' plural rules against the browser's CLDR data, and the digit grouping.
            for lang in LANGUAGES:
                mine, intl = await page.evaluate(
                    """async ([lang, texts]) => {
                        const m = await import("/static/texts.js");
                        const rules = m.language(texts);
                        const intl = new Intl.PluralRules(lang);
                        const numbers = [...Array(2001).keys(), 1000000, 2000000, 1500000];
                        const grouping = [5, 999, 1000, 9999, 10000, 123456, 1234567];
                        const nf = new Intl.NumberFormat(lang);
                        const theirs = (n) => nf.format(n).replace(/[\\s\\u202f]/g, rules.group);
                        return [numbers.map((n) => rules.rule(n)).concat(grouping.map((n) => m.formatNumber(n, rules))),
                                numbers.map((n) => intl.select(n)).concat(grouping.map(theirs))];
                    }""",
                    [lang, texts[lang]],
                )
                assert mine == intl, lang

    asyncio.run(scenario())
