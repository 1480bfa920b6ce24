#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse reStructuredText files with docutils and fail on the first
warning in each (what the kernel's Sphinx build would flag: tables,
titles, definition lists).  Usage: tools/docs_check.py FILE.rst..."""
import sys

import docutils.core
import docutils.utils

rc = 0
for path in sys.argv[1:]:
    try:
        with open(path, encoding='utf-8') as f:
            docutils.core.publish_doctree(
                f.read(), source_path=path,
                settings_overrides={'halt_level': 2, 'report_level': 2,
                                    'warning_stream': False})
    except docutils.utils.SystemMessage as e:
        print(f'docs-check: {e}'.splitlines()[0], file=sys.stderr)
        rc = 1
sys.exit(rc)
