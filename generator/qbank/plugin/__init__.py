"""The MkDocs adapter (plugin ``qbank``): the only package that imports MkDocs.

It loads the bank, has ``qbank.site.render`` turn it into pages, and hands them to MkDocs in
memory (``File.generated``), so nothing is written into a watched folder. Each locale is its
own MkDocs build, so Material's interface text follows the page's language.

  hooks.py       the plugin class: receives MkDocs' events, hands the work on
  config.py      the plugin's options; what it sets in MkDocs' config (nav, theme defaults…)
  loading.py     ``mkdocs build`` loads the bank in a forked process
  locales.py     the per-locale builds (a forked process, nested builds, search indexes)
  pages.py       the generated files of a build; questions put into a page's HTML
  datafiles.py   the practice and JSON API files, written one at a time
  publish.py     ``mkdocs build``: staged output swapped in at the end (``qbank.site.output``)
  serve.py       ``mkdocs serve``: the session kept across rebuilds, rebuilding what changed
  watch.py       ``mkdocs serve``: the bank watched through file events
  sitemaps.py    one sitemap per locale
  logfilters.py  MkDocs' notes about pages other builds make, dropped
  report.py      the log: one line per phase with its timing; the bank's problems
  internals.py   every use of a MkDocs or Material private internal (pinned upstream links)
"""

from qbank.plugin.hooks import QbankPlugin

__all__ = ["QbankPlugin"]
