#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Parse every RST file under Documentation/ with docutils and fail on any
warning or error: broken tables, bad indentation, unknown references.

Sphinx's :doc: role and toctree directive, which plain docutils does not
know, are accepted as they are in the kernel's documentation.

  rst.py FILE...
"""

import io
import sys

import docutils.core
import docutils.nodes
import docutils.utils
from docutils.parsers.rst import Directive, directives, roles


def doc_role(name, rawtext, text, lineno, inliner, options=None,
             content=None):
    return [docutils.nodes.literal(rawtext, text)], []


class TocTree(Directive):
    has_content = True
    option_spec = {'maxdepth': directives.nonnegative_int}

    def run(self):
        return []


def main(paths):
    roles.register_local_role('doc', doc_role)
    directives.register_directive('toctree', TocTree)
    bad = 0
    for path in paths:
        text = open(path, encoding='utf-8').read()
        msgs = io.StringIO()
        try:
            docutils.core.publish_doctree(
                text, source_path=path,
                settings_overrides={'report_level': 2, 'halt_level': 5,
                                    'warning_stream': msgs})
        except docutils.utils.SystemMessage as e:
            msgs.write('%s: %s\n' % (path, e))
        if msgs.getvalue():
            sys.stdout.write(msgs.getvalue())
            bad += 1
    print('rst: %d files, %d with problems' % (len(paths), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
