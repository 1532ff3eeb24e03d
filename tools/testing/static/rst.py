#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Parse each RST file with docutils and fail on any warning or error:
broken tables, bad indentation, unknown references.  Sphinx's :doc: role
and toctree directive are accepted, as in the kernel's documentation.

  rst.py FILE...
"""

import io
import sys

import docutils.core
import docutils.nodes
import docutils.utils
from docutils.parsers.rst import Directive, directives, roles


def main(paths):
    roles.register_local_role('doc', lambda name, rawtext, text, *_, **__: (
        [docutils.nodes.literal(rawtext, text)], []))
    directives.register_directive('toctree', type('TocTree', (Directive,), {
        'has_content': True, 'run': lambda self: [],
        'option_spec': {'maxdepth': directives.nonnegative_int}}))
    bad = 0
    for path in paths:
        msgs = io.StringIO()
        try:
            docutils.core.publish_doctree(
                open(path, encoding='utf-8').read(), source_path=path,
                settings_overrides={'report_level': 2, 'halt_level': 5,
                                    'warning_stream': msgs})
        except docutils.utils.SystemMessage as e:
            msgs.write('%s: %s\n' % (path, e))
        sys.stdout.write(msgs.getvalue())
        bad += bool(msgs.getvalue())
    print('rst: %d files, %d with problems' % (len(paths), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
