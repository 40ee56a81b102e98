#!/usr/bin/env python3
"""Writes the inputs scripts/compare-builds.sh runs two builds of linkwright on.

    fixtures.py BENCH DIR [--quick]

BENCH is a linkwright-bench binary; DIR must not exist yet. Everything is seeded, so two runs
write the same files. The full set (what an optimisation is checked with before it lands):

    configs/example        the repository's example configuration (routes, policies, schemes)
    configs/generated      a generated size L configuration (66 domains, 2 environments; some of
                           its expectations fail, as the generator plants them)
    configs/invalid        generated with a value of the wrong type and an unknown key
    configs/turned         generated with expectations turned around and an exclusion added
    configs/yaml-forms     generated with flow mappings and comments
    configs/yaml-broken    generated with a tab indent and an unclosed flow sequence
    histories/tags         1,000 commits of size S, 100 of them tagged
    histories/large        50 commits of size L, 10 tagged
    histories/mixed-1, -2  40 tagged commits each of mixed edits to a size M configuration:
                           rules inserted anywhere, deleted, moved, paths, queries, exclusions
                           and case changed, fragments, and commits that touch only the README
    match/rules.json, match/urls.txt
                           an apple-app-site-association of 1,000 rules of every shape and
                           20,000 URLs to decide against it

--quick writes the same shapes at size S, with 12 tags, 8 mixed tags and 200 rules, for the
test that shows the comparison finds a difference.
"""

import os
import random
import re
import shutil
import subprocess
import sys


def main():
    arguments = [a for a in sys.argv[1:] if a != "--quick"]
    if len(arguments) != 2:
        sys.exit("usage: fixtures.py BENCH DIR [--quick]")
    bench, root = arguments
    quick = "--quick" in sys.argv[1:]
    if os.path.exists(root):
        sys.exit(f"fixtures.py: {root} exists already; remove it or give another folder")
    size = "S" if quick else "L"
    configs = os.path.join(root, "configs")
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for folder in ("environments", "domains", "policies"):
        shutil.copytree(os.path.join(repository, folder), os.path.join(configs, "example", folder))
    generated = os.path.join(configs, "generated")
    generate(bench, "config", "--size", size, "--out", generated)
    variant(generated, os.path.join(configs, "invalid"), invalid)
    variant(generated, os.path.join(configs, "turned"), turned)
    variant(generated, os.path.join(configs, "yaml-forms"), yaml_forms)
    variant(generated, os.path.join(configs, "yaml-broken"), yaml_broken)

    histories = os.path.join(root, "histories")
    if quick:
        generate(bench, "history", "--size", "S", "--commits", "40", "--tags", "12", "--out", f"{histories}/tags")
    else:
        generate(bench, "history", "--size", "S", "--commits", "1000", "--tags", "100", "--out", f"{histories}/tags")
        generate(bench, "history", "--size", "L", "--commits", "50", "--tags", "10", "--out", f"{histories}/large")
    mixed_base = os.path.join(root, "mixed-base")
    generate(bench, "config", "--size", "S" if quick else "M", "--out", mixed_base)
    for seed in (1, 2):
        mixed_history(mixed_base, os.path.join(histories, f"mixed-{seed}"), seed, 8 if quick else 40)
    shutil.rmtree(mixed_base)

    rules = "200" if quick else "1000"
    match = os.path.join(root, "match")
    os.makedirs(match)
    generate(bench, "aasa", "--rules", rules, "--mix", "mixed", "--out", f"{match}/rules.json")
    count = "2000" if quick else "20000"
    generate(bench, "urls", "--rules", rules, "--count", count, "--mix", "mixed", "--out", f"{match}/urls.txt")


def generate(bench, *arguments):
    subprocess.run([bench, "generate", *arguments, "--seed", "7"], check=True, stdout=subprocess.DEVNULL)


def variant(source, target, edit):
    shutil.copytree(source, target)
    edit(os.path.join(target, "domains"))


def domain_files(domains):
    """The domain files in generation order (d0, d1, ..., d10, ...)."""
    names = [n for n in os.listdir(domains) if re.fullmatch(r"d\d+\.yaml", n)]
    return [os.path.join(domains, n) for n in sorted(names, key=lambda n: int(n[1:-5]))]


def rewrite(path, edit):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    edited = edit(text)
    if edited == text:
        sys.exit(f"fixtures.py: the edit changed nothing in {path}; the generator's output changed")
    with open(path, "w", encoding="utf-8") as file:
        file.write(edited)


def nth(files, index):
    return files[index % len(files)]


def invalid(domains):
    files = domain_files(domains)
    rewrite(
        nth(files, 3),
        lambda t: t.replace("    rules:\n", "    rules:\n      - path: /typo/*\n        exclude: maybe\n", 1))
    rewrite(nth(files, 7), lambda t: t.replace("    rules:\n", "    rulez: []\n    rules:\n", 1))


def turned(domains):
    files = domain_files(domains)
    for path in dict.fromkeys(nth(files, index) for index in (1, 5, 9, 30)):
        rewrite(path, lambda t: t.replace("opens_app: true", "opens_web: true", 3))
    rewrite(nth(files, 2), lambda t: t.replace("    rules:\n", "    rules:\n      - path: /private/*\n        exclude: true\n", 1))


def yaml_forms(domains):
    files = domain_files(domains)
    rewrite(nth(files, 4), lambda t: re.sub(r"(  - apps: \[[^\]\n]*\])", r"\1  # every app", t, count=1))
    rewrite(
        nth(files, 4),
        lambda t: t.replace("    rules:\n", "    rules:\n      - {path: \"/orders\", comment: 'flow'}\n", 1))
    rewrite(nth(files, 6), lambda t: "# a comment before the document\n" + t)


def yaml_broken(domains):
    files = domain_files(domains)
    rewrite(nth(files, 8), lambda t: t.replace("    rules:\n      - ", "    rules:\n\t- ", 1))
    rewrite(nth(files, 11), lambda t: re.sub(r"(  - apps: \[[^\]\n]*)\]", r"\1", t, count=1))


def mixed_history(source, target, seed, tags):
    """A history of `tags` tagged commits, each a few seeded edits of the first rule list of
    some domain files, or a README line (a commit that changes no link)."""
    rng = random.Random(seed)
    shutil.copytree(source, target)
    environment = dict(os.environ, GIT_AUTHOR_NAME="Fixture", GIT_AUTHOR_EMAIL="fixture@example.invalid",
                       GIT_COMMITTER_NAME="Fixture", GIT_COMMITTER_EMAIL="fixture@example.invalid")

    def git(*arguments):
        subprocess.run(["git", "-C", target, *arguments], check=True, stdout=subprocess.DEVNULL, env=environment)

    moment = [1_700_000_000]

    def commit(message):
        moment[0] += 3600
        environment["GIT_AUTHOR_DATE"] = environment["GIT_COMMITTER_DATE"] = f"{moment[0]} +0000"
        git("add", "-A")
        git("commit", "-q", "--allow-empty", "-m", message)

    git("init", "-q", "-b", "main")
    commit("Link contract")
    files = domain_files(os.path.join(target, "domains"))
    made = 0
    for tag in range(1, tags + 1):
        if rng.randrange(10) == 0:
            with open(os.path.join(target, "README.md"), "a", encoding="utf-8") as readme:
                readme.write(f"Release {tag}\n")
        else:
            for _ in range(rng.randrange(1, 4)):
                made += 1
                edit_rules(rng.choice(files), rng, made)
        commit(f"Edit {tag}")
        git("tag", f"v1.{tag}")


WORDS = ["shop", "news", "Help", "cart", "a%20b", "caf\u00e9", "docs", "x", "item", "promo"]


def new_rule(rng, number):
    word = rng.choice(WORDS)
    base = f"/{word}{number}"
    return rng.choice([
        [f"      - path: {base}"],
        [f"      - path: {base}/*"],
        [f"      - path: {base}/?*", "        case_sensitive: false"],
        [f"      - path: {base}/*", "        query: {ref: \"?*\"}"],
        [f"      - path: {base}/*", "        exclude: true"],
        ["      - path: \"*\"", f"        fragment: \"{word}*\""],
        [f"      - path: {base}*", "        percent_encoded: false"],
        [f"      - path: /*/{word}/*"],
        [f"      - path: {base}/*/end"],
    ])


def toggle(block, line):
    if line in block:
        block.remove(line)
    else:
        block.append(line)


def edit_rules(path, rng, number):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    start = text.index("    rules:\n") + len("    rules:\n")
    lines = text[start:].split("\n")
    blocks, index = [], 0
    while index < len(lines) and lines[index].startswith("      - "):
        block = [lines[index]]
        index += 1
        while index < len(lines) and lines[index].startswith("        "):
            block.append(lines[index])
            index += 1
        blocks.append(block)
    operation = rng.randrange(8)
    if operation <= 1 or len(blocks) < 3:
        blocks.insert(rng.randrange(len(blocks) + 1), new_rule(rng, number))
    elif operation == 2:
        del blocks[rng.randrange(len(blocks))]
    elif operation == 3:
        block = blocks.pop(rng.randrange(len(blocks)))
        blocks.insert(rng.randrange(len(blocks) + 1), block)
    elif operation == 4:
        block = blocks[rng.randrange(len(blocks))]
        block[0] = re.sub(r"(path: \"?)([^\"\s]+)", lambda m: m.group(1) + m.group(2) + "/x", block[0], count=1)
    elif operation == 5:
        toggle(blocks[rng.randrange(len(blocks))], "        exclude: true")
    elif operation == 6:
        block = blocks[rng.randrange(len(blocks))]
        queries = [line for line in block if line.startswith("        query:")]
        if queries:
            block.remove(queries[0])
        else:
            block.append(f"        query: {{q{number}: \"?*\"}}")
    else:
        toggle(blocks[rng.randrange(len(blocks))], "        case_sensitive: false")
    rules = "".join("\n".join(block) + "\n" for block in blocks)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text[:start] + rules + "\n".join(lines[index:]))


if __name__ == "__main__":
    main()
