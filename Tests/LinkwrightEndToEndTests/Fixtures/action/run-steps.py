#!/usr/bin/env python3
"""Runs the steps of action.yml that run linkwright, as a GitHub runner runs a composite
action's steps: `${{ }}` expressions of the inputs and of earlier steps' outputs substituted,
`if:` conditions decided, `env:` and `working-directory:` applied, a fresh GITHUB_OUTPUT file per
step, `GITHUB_ACTION_PATH` the action's folder, and `bash --noprofile --norc -eo pipefail`.
Steps that use another action are not run, nor is the install step: the linkwright given stands
in for its output.

Usage: run-steps.py ACTION_YML WORKSPACE LINKWRIGHT INPUTS_JSON
Prints JSON: each step's name, whether it ran, its exit status and output; the job summary.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

action_file, workspace, linkwright, given = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
action = yaml.safe_load(open(action_file, encoding="utf-8"))
inputs = {}
for name, spec in action["inputs"].items():
    default = str(spec.get("default", ""))
    # A default that is an expression (against: the pull request's base) is empty off a pull request.
    inputs[name] = given.get(name, "" if "${{" in default else default)
outputs = {"install": {"linkwright": linkwright}}


def evaluate(expression):
    expression = expression.strip()
    match = re.fullmatch(r"inputs\.([\w-]+)", expression)
    if match:
        return inputs[match.group(1)]
    match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
    if match:
        return outputs.get(match.group(1), {}).get(match.group(2), "")
    raise SystemExit(f"unsupported expression: {expression}")


def substitute(text):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda match: evaluate(match.group(1)), str(text))


def holds(condition):
    for term in condition.split("&&"):
        term = term.strip()
        if term == "always()":
            continue
        match = re.fullmatch(r"(.+?)\s*(!=|==)\s*'(.*)'", term)
        if not match:
            raise SystemExit(f"unsupported condition: {term}")
        if (evaluate(match.group(1)) == match.group(3)) != (match.group(2) == "=="):
            return False
    return True


temporary = tempfile.mkdtemp()
summary = os.path.join(temporary, "summary.md")
open(summary, "w").close()
report = {"steps": []}
for step in action["runs"]["steps"]:
    if "uses" in step or step.get("id") == "install":
        continue
    if "if" in step and not holds(step["if"]):
        report["steps"].append({"name": step["name"], "ran": False})
        continue
    output_file = os.path.join(temporary, "output")
    open(output_file, "w").close()
    environment = dict(os.environ, GITHUB_WORKSPACE=workspace, RUNNER_TEMP=temporary,
                       GITHUB_ACTION_PATH=os.path.dirname(os.path.abspath(action_file)),
                       GITHUB_STEP_SUMMARY=summary, GITHUB_OUTPUT=output_file)
    environment.update({key: substitute(value) for key, value in step.get("env", {}).items()})
    folder = os.path.join(workspace, substitute(step.get("working-directory", ".")))
    run = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step["run"])],
                         cwd=folder, env=environment, capture_output=True, text=True)
    with open(output_file, encoding="utf-8") as lines:
        outputs[step.get("id", "")] = dict(line.rstrip("\n").split("=", 1) for line in lines if "=" in line)
    report["steps"].append({"name": step["name"], "ran": True, "status": run.returncode,
                            "stdout": run.stdout, "stderr": run.stderr})
report["summary"] = open(summary, encoding="utf-8").read()
print(json.dumps(report))
