#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check Documentation/*.rst: every page parses without a warning, and
every kernel-doc directive names a file that exists and identifiers that
have a kernel-doc comment there.

Usage: scripts/check-docs.py KSRC [FILE.rst...]

KSRC is a kernel source tree; its scripts/kernel-doc renders each
directive as Sphinx would (Documentation/sphinx/kerneldoc.py), so a
directive passes only if the kernel's own build of these pages would
render it without a warning. Sphinx itself is not needed: docutils parses
each page with stubs for the Sphinx-only directives and roles, which is
enough to catch every reStructuredText error. Prints "PASS: docs FILE" or
"FAIL: docs FILE: why" per page; exits 1 on any failure.
"""

import glob
import io
import os
import re
import subprocess
import sys

try:
    import docutils.core
    import docutils.nodes
    from docutils.parsers.rst import Directive, directives, roles
except ImportError:
    print("FAIL: docs: python3 docutils is missing (scripts/setup-host.sh "
          "installs python3-docutils)")
    sys.exit(1)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The kernel-doc directives of the page being parsed: (line, file, options)
found = []


class KernelDoc(Directive):
    """A stub of the kernel's kernel-doc directive: records its use."""
    required_arguments = 1
    optional_arguments = 0
    has_content = False
    option_spec = {
        "export": directives.unchanged,
        "internal": directives.unchanged,
        "identifiers": directives.unchanged,
        "no-identifiers": directives.unchanged,
        "functions": directives.unchanged,
        "doc": directives.unchanged_required,
    }

    def run(self):
        line = self.state_machine.abs_line_number()
        found.append((line, self.arguments[0], dict(self.options)))
        return []


class Toctree(Directive):
    """A stub of Sphinx's toctree: checks that each entry exists."""
    has_content = True
    option_spec = {
        "maxdepth": directives.nonnegative_int,
        "caption": directives.unchanged,
        "hidden": directives.flag,
        "numbered": directives.unchanged,
        "titlesonly": directives.flag,
        "glob": directives.flag,
    }

    def run(self):
        base = os.path.join(TOP, os.path.dirname(
            self.state.document.current_source))
        msgs = []
        for entry in self.content:
            entry = entry.strip()
            if not entry:
                continue
            m = re.match(r"^.*<(.+)>$", entry)
            name = m.group(1) if m else entry
            if not os.path.exists(os.path.join(base, name + ".rst")):
                msgs.append(self.state_machine.reporter.error(
                    "toctree names a page that does not exist: %s" % name,
                    line=self.lineno))
        return msgs


def sphinx_role(name, rawtext, text, lineno, inliner, options=None,
                content=None):
    return [docutils.nodes.literal(rawtext, text)], []


directives.register_directive("kernel-doc", KernelDoc)
directives.register_directive("toctree", Toctree)
for r in ("doc", "ref", "c:func", "c:type", "c:macro", "c:struct"):
    roles.register_local_role(r, sphinx_role)


def parse(path, rel):
    """Parse one page; return its warnings and errors as 'file:line: msg'."""
    stream = io.StringIO()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    docutils.core.publish_doctree(
        text, source_path=rel,
        settings_overrides={
            "report_level": 2,       # warnings and above
            "halt_level": 5,         # never stop: report them all
            "warning_stream": stream,
            "file_insertion_enabled": False,
            "raw_enabled": False,
        })
    return [l for l in stream.getvalue().splitlines() if l.strip()]


def kernel_doc(ksrc, rel, opts):
    """Render one directive with scripts/kernel-doc; return a list of
    problems (empty when it renders cleanly)."""
    path = os.path.join(TOP, rel)
    if not os.path.isfile(path):
        return ["%s does not exist" % rel]
    base = [os.path.join(ksrc, "scripts/kernel-doc"), "-rst",
            "-sphinx-version", "3.4.3"]
    runs = []
    if "functions" in opts:
        opts = dict(opts, identifiers=opts["functions"])
    if "export" in opts or "internal" in opts:
        key = "export" if "export" in opts else "internal"
        cmd = base + ["-" + key]
        for pat in (opts[key] or "").split():
            files = glob.glob(os.path.join(TOP, pat))
            if not files:
                return [":%s: %s matches no file" % (key, pat)]
            for f in files:
                cmd += ["-export-file", f]
        runs.append((":%s:" % key, cmd + [path]))
    elif "doc" in opts:
        runs.append(("DOC: " + opts["doc"],
                     base + ["-function", opts["doc"], path]))
    elif "identifiers" in opts and opts["identifiers"].split():
        # one run per identifier, so each must be documented itself
        for ident in opts["identifiers"].split():
            runs.append((ident, base + ["-function", ident, path]))
    else:
        runs.append(("the whole file", base + [path]))
    problems = []
    for what, cmd in runs:
        p = subprocess.run(cmd, cwd=TOP, capture_output=True, text=True)
        err = p.stderr.strip()
        if p.returncode != 0 or err:
            problems.append("%s: %s" % (what, err.splitlines()[0] if err
                                        else "exited %d" % p.returncode))
        elif not re.search(r"^\.\. c:", p.stdout, re.M) and \
                not (what.startswith("DOC: ") and p.stdout.strip()):
            problems.append("%s: kernel-doc prints nothing" % what)
    return problems


def main():
    if len(sys.argv) < 2 or not os.path.isfile(
            os.path.join(sys.argv[1], "scripts/kernel-doc")):
        print("usage: check-docs.py KSRC [FILE.rst...]", file=sys.stderr)
        return 2
    ksrc = sys.argv[1]
    pages = sys.argv[2:] or sorted(glob.glob(os.path.join(TOP,
                                                          "Documentation",
                                                          "*.rst")))
    rc = 0
    for page in pages:
        rel = os.path.relpath(page, TOP)
        del found[:]
        problems = parse(page, rel)
        for line, f, opts in found:
            for p in kernel_doc(ksrc, f, opts):
                problems.append("%s:%d: kernel-doc %s: %s" % (rel, line, f, p))
        if problems:
            for p in problems:
                print(p)
            print("FAIL: docs %s: %d problem(s), first: %s" %
                  (rel, len(problems), problems[0]))
            rc = 1
        else:
            print("PASS: docs %s (%d kernel-doc directive(s))" %
                  (rel, len(found)))
    # A page nothing links to would never be built by Sphinx
    index = os.path.join(TOP, "Documentation", "index.rst")
    if len(sys.argv) == 2 and os.path.exists(index):
        with open(index, encoding="utf-8") as f:
            listed = set(re.findall(r"^\s+(\S+)\s*$", f.read(), re.M))
        for page in pages:
            name = os.path.splitext(os.path.basename(page))[0]
            if name != "index" and name not in listed:
                print("FAIL: docs %s: not in index.rst's toctree" %
                      os.path.relpath(page, TOP))
                rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
