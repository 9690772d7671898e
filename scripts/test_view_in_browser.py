#!/usr/bin/env python3
"""The bundle's HTML view, opened in a real browser (run by `make test`).

Converts Samples/ into a store, gives one recipe the title `<script>alert(1)</script>`,
exports it, verifies it with `ferry verify` and bagit-python, unpacks it and opens its
index.html from file:// in headless Chromium (Debian's `chromium`, driven by Playwright):
- every recipe and project title of the store is on a page within two clicks of index.html;
- each recipe page carries its recipes' schema.org JSON-LD (as "import from a web page" reads
  it), named as shown, and links each recipe's .jsonld file, which is in the bundle;
- the logs on the log pages, followed by their "next" links, number what bundle.json counts;
- every image on every page visited loads;
- no request leaves the unpacked bundle, and no script but the view's own runs;
- the hostile title shows as text, and no dialog opens;
- without JavaScript the recipes still read; headings never skip a level; every image has alt
  text; every table has header cells; Tab reaches the links;
- a person reads dates, names and words: at 1,200 px no page is wider than the window; log
  times have no fraction and no `T…Z`; kinds and outcomes have no `_` codes; parameters have no
  camelCase names; no log is titled by a Photos identifier; a material reads as its catalog
  name; the recipe and project contents pages list every title; a created or modified time
  Ferry made up (from a file's modification time) is marked as such, never shown as the app's.
Exits 1 naming each failure.
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import deque

HOSTILE = "<script>alert(1)</script>"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message, file=sys.stderr)


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_bundle(ferry, work):
    store = os.path.join(work, "samples.ferry")
    run(ferry, "convert", "Samples", "--to", store)
    with sqlite3.connect(store) as db:
        db.execute("UPDATE recipe SET title = ? WHERE id = (SELECT min(id) FROM recipe)", (HOSTILE,))
        titles = [row[0] for row in db.execute("SELECT title FROM recipe UNION ALL SELECT title FROM project")]
        global CATALOG_NAMES, RECIPE_TITLES, PROJECT_TITLES
        CATALOG_NAMES = {row[0] for row in db.execute("SELECT name FROM catalog_item WHERE name IS NOT NULL")}
        RECIPE_TITLES = [row[0] for row in db.execute("SELECT title FROM recipe")]
        PROJECT_TITLES = [row[0] for row in db.execute("SELECT title FROM project")]
    bundle = os.path.join(work, "samples.tar.zst")
    run(ferry, "export", store, "-o", bundle)
    run(ferry, "verify", bundle)
    unpacked = os.path.join(work, "unpacked")
    os.mkdir(unpacked)
    run("tar", "--zstd", "-xf", bundle, "-C", unpacked)
    return os.path.join(unpacked, "samples"), titles


def visible_text(page):
    return page.evaluate("document.body.innerText")


def audit_words(page, name):
    """What a person reads: the page fits 1,200 px; log cells read as dates and words."""
    width = page.evaluate("document.documentElement.scrollWidth")
    check(width <= 1200, f"{name}: {width} px wide in a 1,200 px window")
    cells = page.evaluate("""Array.from(document.querySelectorAll('table.logs > tbody > tr')).map(row =>
        Array.from(row.children).map(cell => cell.innerText))""")
    for cells_of_row in cells:
        started, title, kind, outcome, made = cells_of_row[0], cells_of_row[1], cells_of_row[2], cells_of_row[4], cells_of_row[5]
        check(not re.search(r"T\d\d:\d\d|\.\d+Z|Z$", started), f"{name}: a time reads {started!r}")
        check("_" not in kind + outcome, f"{name}: a code reads {kind!r} / {outcome!r}")
        check(not re.search(r"[0-9A-F]{8}-[0-9A-F]{4}-.*/L0/", title), f"{name}: a log is titled {title!r}")
        check(not re.search(r"\b[a-z]+[A-Z][a-z]+ -?\d", made), f"{name}: a parameter reads {made!r}")
    links = page.evaluate("Array.from(document.querySelectorAll('a[href*=\"#item-\"]')).map(a => a.innerText)")
    strangers = [text for text in links if text not in CATALOG_NAMES]
    check(not CATALOG_NAMES or strangers == [], f"{name}: materials read as {strangers[:3]}, not catalog names")


def audit_page(page, name):
    """Images load; headings in order; alt text; header cells; only the view's own script."""
    audit_words(page, name)
    broken = page.evaluate("""async () => {
        const images = Array.from(document.images);
        for (const image of images) image.loading = "eager";
        const results = await Promise.all(images.map(image => image.decode().then(() => null, () => image.getAttribute("src"))));
        return results.filter(result => result !== null);
    }""")
    check(broken == [], f"{name}: images that do not load: {broken}")
    levels = page.evaluate("Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6')).map(h => Number(h.tagName[1]))")
    check(levels[:1] == [1], f"{name}: the first heading is not h1 ({levels[:1]})")
    for before, after in zip(levels, levels[1:]):
        check(after <= before + 1, f"{name}: heading h{after} follows h{before}")
    check(page.evaluate("Array.from(document.images).every(i => (i.getAttribute('alt') || '').trim() !== '')"), f"{name}: an image without alt text")
    check(page.evaluate("Array.from(document.querySelectorAll('table')).every(t => t.querySelector('th'))"), f"{name}: a table without header cells")
    # Data blocks (a recipe's JSON-LD) are scripts the browser never runs.
    scripts = page.evaluate("Array.from(document.scripts).filter(s => s.type !== 'application/ld+json').map(s => s.getAttribute('src'))")
    check(scripts in ([], ["filter.js"], ["view/filter.js"]), f"{name}: scripts {scripts}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ferry", default=".build/debug/ferry")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    import bagit

    work = tempfile.mkdtemp(prefix="ferry-view-")
    try:
        bag, titles = make_bundle(os.path.abspath(args.ferry), work)
        bagit.Bag(bag).validate()
        counts = json.load(open(os.path.join(bag, "bundle.json")))["counts"]
        root = "file://" + bag + "/"
        index = root + "index.html"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            context = browser.new_context(viewport={"width": 1200, "height": 900})
            requests, dialogs = [], []
            context.on("request", lambda request: requests.append(request.url))
            page = context.new_page()
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

            # Breadth first from index.html, two clicks deep, every page audited on the way.
            depth = {index: 0}
            texts = {}
            queue = deque([index])
            while queue:
                url = queue.popleft()
                page.goto(url)
                texts[url] = visible_text(page)
                audit_page(page, url[len(root):])
                if depth[url] == 2:
                    continue
                for link in page.evaluate("Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"):
                    target = link.split("#")[0]
                    if target.startswith(root) and target.endswith(".html") and target not in depth:
                        depth[target] = depth[url] + 1
                        queue.append(target)
            seen = "\n".join(texts.values())
            missing = [title for title in titles if title not in seen]
            check(missing == [], f"titles not within two clicks of index.html: {missing}")
            check(HOSTILE in seen, "the hostile title is not shown as text")

            # The contents pages name every record, not page ranges.
            for section, expected in (("recipes", RECIPE_TITLES), ("projects", PROJECT_TITLES)):
                listed = texts.get(root + f"view/{section}.html", "")
                absent = [title for title in expected if title not in listed]
                check(absent == [], f"view/{section}.html does not list {absent[:3]}")

            # Times Ferry made up are marked where they are shown; the mark itself is no legacy field.
            recipes_page = texts.get(root + "view/recipes-1.html", "")
            check("not the app's: Ferry's stand-in, from modification time of recipes.json" in recipes_page,
                  "view/recipes-1.html does not mark the times taken from recipes.json's modification time")
            check("synthesizedTimes" not in seen, "Ferry's own mark is shown among the legacy fields")
            check("starter template" in recipes_page and "starter_template" not in recipes_page,
                  "view/recipes-1.html shows a recipe's origin as a code, not as words")

            # Each recipe's JSON-LD, as a recipe manager's "import from a web page" reads it from the
            # page the browser loaded: one schema.org Recipe per recipe, named as the page shows it
            # (the hostile title whole, its script never run), and a link to its own .jsonld that loads.
            page.goto(root + "view/recipes-1.html")
            blocks = page.evaluate("Array.from(document.querySelectorAll('script[type=\"application/ld+json\"]')).map(s => s.textContent)")
            nodes = [json.loads(block) for block in blocks]
            check(all(node.get("@type") == "Recipe" and node.get("@context") == "https://schema.org" for node in nodes),
                  "a recipe page's JSON-LD is not a schema.org Recipe")
            names = sorted(node.get("name") for node in nodes)
            on_page = sorted(title for title in RECIPE_TITLES if title in texts.get(root + "view/recipes-1.html", ""))
            check(names == on_page, f"the JSON-LD names {names[:3]} are not the page's recipes {on_page[:3]}")
            check(HOSTILE in names, "the hostile title is not whole in the JSON-LD")
            links = page.evaluate("Array.from(document.querySelectorAll('p.formats a')).map(a => a.href)")
            check(len([link for link in links if link.endswith(".jsonld")]) == len(nodes), "not every recipe links its .jsonld")
            for link in links[:3]:
                check(os.path.exists(link[len("file://"):]), f"a recipe's format link does not land: {link}")

            # The log pages, by their "next" links: as many rows as bundle.json counts.
            page.goto(index)
            page.click("main a[href='view/logs-1.html']")
            logs = 0
            while True:
                logs += page.locator("table.logs > tbody > tr").count()
                following = page.locator("nav.pages a[rel=next]").first
                if following.count() == 0:
                    break
                following.click()
            check(logs == counts["log"], f"{logs} log rows on the pages, bundle.json counts {counts['log']}")

            # The keyboard reaches the links: the first Tab lands on the skip link.
            page.goto(index)
            page.keyboard.press("Tab")
            check(page.evaluate("document.activeElement.tagName") == "A", "Tab does not reach a link")

            outside = [url for url in requests if not url.startswith(root)]
            check(outside == [], f"requests that leave the bundle: {outside[:5]}")
            check(dialogs == [], f"dialogs opened: {dialogs}")

            # Without JavaScript the pages read the same.
            still = browser.new_context(java_script_enabled=False).new_page()
            still.goto(index)
            still.click("main a[href='view/recipes-1.html']")
            text = visible_text(still)
            check(all(title in text for title in titles if title in texts.get(root + "view/recipes-1.html", "")),
                  "recipes do not read without JavaScript")
            browser.close()
        print(f"view in Chromium: {len(texts)} pages within two clicks, {len(titles)} titles found, {logs} logs, "
              f"{len(requests)} requests all inside the bundle" if not failures else f"{len(failures)} failures")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
