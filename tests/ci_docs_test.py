#!/usr/bin/env python3
"""The copy-paste CI jobs of docs/ci/*.md, checked as far as they can be here.

Each page's job is read out of the page: the YAML parses (PyYAML), and the
shell the CI would run runs here, in order and with the CI's shell options,
against the CLI. Stand-ins on PATH: `fio` leaves the README's client/server
run (tests/fixtures/fio-s1: its logs and fio.json) as its output;
`buildkite-agent` and `glab` record their arguments and standard input;
`latscope` is the CLI under test with the stand-in page template. The run's
start-up spike breaks p99.9<=20ms, so every job must keep its artifacts,
post its verdict and then fail its gate on exit status 3.

    python3 tests/ci_docs_test.py path/to/latscope
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "tests", "fixtures")
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "latscope"))
fails = 0


def check(name, ok, detail=""):
    global fails
    if ok:
        print(f"ok   {name}")
    else:
        fails += 1
        print(f"FAIL {name}{': ' + str(detail)[:2000] if detail else ''}")


def blocks(page, lang):
    text = open(os.path.join(ROOT, "docs", "ci", page), encoding="utf-8").read()
    return [m.group(1) for m in re.finditer(r"^```" + lang + r"\n(.*?)^```$", text, re.S | re.M)]


def workdir():
    """A job's working directory and PATH with the stand-ins."""
    d = tempfile.mkdtemp(prefix="ci-docs-")
    tools = os.path.join(d, ".tools")
    os.mkdir(tools)
    s1 = os.path.join(FIX, "fio-s1")
    stubs = {
        # fio: the logs and JSON of the README's client/server run, as fio writes them.
        "fio": f'cp "{s1}"/s1_clat_hist.* . && cp "{s1}/s1.json" fio.json\n',
        "latscope": f'LATSCOPE_REPORT_TEMPLATE="{FIX}/report/stand-in.html" exec "{BIN}" "$@"\n',
        "buildkite-agent": 'printf "%s\\n" "$*" >> .calls-buildkite-agent\n'
        'if [ "$1" = annotate ]; then cat > .annotation; fi\n',
        "glab": 'printf "%s\\n" "$@" > .calls-glab\n',
    }
    for name, body in stubs.items():
        p = os.path.join(tools, name)
        with open(p, "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(p, 0o755)
    env = dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"])
    return d, env


def run(script, cwd, env, shell):
    return subprocess.run(shell + [script], cwd=cwd, env=env, capture_output=True, text=True)


def read(d, name):
    p = os.path.join(d, name)
    return open(p, encoding="utf-8").read() if os.path.exists(p) else ""


def verdict_ok(name, text):
    check(f"{name}: the verdict is the report's", text.startswith("## latscope SLA: FAIL\n") and "| `p99.9<=20ms` | FAIL |" in text, text[:300])


def artifacts_exist(name, d, paths):
    missing = [p for p in paths if not os.path.exists(os.path.join(d, p.rstrip("/")))]
    check(f"{name}: artifact paths exist", not missing and paths, missing)


def github():
    ys = blocks("github-actions.md", "yaml")
    check("github: one YAML job", len(ys) == 1, len(ys))
    wf = yaml.safe_load(ys[0])
    check("github: the workflow parses with triggers and a job", isinstance(wf, dict) and True in wf and "jobs" in wf)
    steps = wf["jobs"]["latency"]["steps"]
    d, env = workdir()
    summary, output = os.path.join(d, ".summary"), os.path.join(d, ".output")
    env.update(GITHUB_STEP_SUMMARY=summary, GITHUB_OUTPUT=output)
    outputs, gate = {}, None
    for step in steps:
        if "uses" in step:
            if step["uses"].startswith("actions/upload-artifact"):
                artifacts_exist("github", d, [p for p in step["with"]["path"].split("\n") if p])
            continue
        script = re.sub(r"\$\{\{\s*steps\.(\w+)\.outputs\.(\w+)\s*\}\}", lambda m: outputs.get(m.group(1), {}).get(m.group(2), ""), step["run"])
        r = run(script, d, env, ["bash", "-e", "-c"])  # GitHub's `bash -e {0}`
        if step.get("id"):
            outputs[step["id"]] = dict(l.split("=", 1) for l in read(d, ".output").splitlines() if "=" in l)
        if step.get("name") == "SLA gate":
            gate = r.returncode
        elif r.returncode != 0:
            check(f"github: step {step.get('name')} runs", False, r.stderr)
    check("github: the status output is the report's exit 3", outputs.get("latency", {}).get("status") == "3", outputs)
    verdict_ok("github: job summary", read(d, ".summary"))
    check("github: the gate fails", gate not in (None, 0), gate)
    shutil.rmtree(d)


def gitlab():
    ys = blocks("gitlab.md", "yaml")
    check("gitlab: one YAML job", len(ys) == 1, len(ys))
    job = yaml.safe_load(ys[0])["latency"]
    check("gitlab: script lines are strings", all(isinstance(l, str) for l in job["script"]), job["script"])
    d, env = workdir()
    env["CI_MERGE_REQUEST_IID"] = "7"
    # The runner runs the lines in one shell that stops at the first failure.
    r = run("\n".join(job["script"]), d, env, ["bash", "-e", "-c"])
    check("gitlab: the gate (last line) fails the job", r.returncode != 0, r.returncode)
    note = read(d, ".calls-glab").split("\n")
    check("gitlab: the note goes to the merge request", note[:4] == ["mr", "note", "7", "--message"], note[:4])
    verdict_ok("gitlab: merge-request note", "\n".join(note[4:]))
    artifacts_exist("gitlab", d, job["artifacts"]["paths"])
    check("gitlab: artifacts kept when the job fails", job["artifacts"]["when"] == "always")
    shutil.rmtree(d)


def jenkins():
    gs = blocks("jenkins.md", "groovy")
    check("jenkins: one pipeline", len(gs) == 1, len(gs))
    g = gs[0]
    # sh '...' and sh '''...''' steps, in order (no Groovy parser here).
    steps = [m.group(1) if m.group(1) is not None else m.group(2) for m in re.finditer(r"sh '''(.*?)'''|sh '([^'\n]*)'", g, re.S)]
    check("jenkins: three sh steps", len(steps) == 3, steps)
    d, env = workdir()
    codes = [run(s, d, env, ["sh", "-e", "-c"]).returncode for s in steps]  # Jenkins runs sh -xe
    check("jenkins: fio and the report step pass, the gate fails", codes[:2] == [0, 0] and codes[2] != 0, codes)
    check("jenkins: the status kept for the gate is 3", read(d, "latency-status").strip() == "3", read(d, "latency-status"))
    m = re.search(r"archiveArtifacts artifacts: '([^']*)'", g)
    globs = [p.strip() for p in m.group(1).split(",")] if m else []
    missing = [p for p in globs if not glob.glob(os.path.join(d, p))]
    check("jenkins: archived paths exist", globs and not missing, missing)
    verdict_ok("jenkins: verdict.md", read(d, "verdict.md"))
    html = read(d, "latency-report.html")
    check("jenkins: the report carries its static layer", '<div id="latscope-static"' in html and html.count("<svg ") == 2)
    shutil.rmtree(d)


def buildkite():
    ys = blocks("buildkite.md", "yaml")
    check("buildkite: one YAML pipeline", len(ys) == 1, len(ys))
    step = yaml.safe_load(ys[0])["steps"][0]
    command = step["command"]
    # Upload-time interpolation: $$ is a literal $; an unescaped $NAME would
    # be replaced by the uploading agent's environment, never the step's.
    bare = re.findall(r"(?<!\$)\$(?!\$)\w+", command.replace("$$", ""))
    check("buildkite: every $ is escaped as $$", not bare, bare)
    d, env = workdir()
    r = run(command.replace("$$", "$"), d, env, ["bash", "-e", "-c"])
    check("buildkite: the gate (last line) fails the step", r.returncode != 0, r.returncode)
    calls = read(d, ".calls-buildkite-agent")
    check("buildkite: annotation styled error", "annotate --style error --context latency" in calls, calls)
    ann = read(d, ".annotation")
    verdict_ok("buildkite: annotation", ann)
    check("buildkite: the chart as an artifact:// image", '<img src="artifact://latency-svg/pctiles.svg"' in ann)
    up = re.search(r'artifact upload "([^"]*)"', command)
    paths = up.group(1).split(";") if up else []
    check("buildkite: uploaded paths exist", paths and all(glob.glob(os.path.join(d, p)) for p in paths), paths)
    shutil.rmtree(d)


for job in (github, gitlab, jenkins, buildkite):
    try:
        job()
    except Exception as e:  # a page that no longer has the shape read above
        check(job.__name__, False, repr(e))
print(f"{fails} CI doc checks failed" if fails else "all CI doc checks passed")
sys.exit(1 if fails else 0)
