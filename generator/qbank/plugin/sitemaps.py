"""One ``<locale>/sitemap.xml`` per locale (Material's language switcher fetches them)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin
from xml.sax.saxutils import escape

from mkdocs.config.defaults import MkDocsConfig

from qbank.bank import Bank
from qbank.render import page_paths


def write_locale_sitemaps(bank: Bank, config: MkDocsConfig) -> None:
    """Write ``<locale>/sitemap.xml``: the locale's generated pages, sorted, without dates."""
    root = config.site_url or "/"
    for locale in bank.catalog.locales:
        urls = []
        for path in sorted(page_paths(bank, locale)):
            folder = path.removesuffix("index.md")
            urls.append(urljoin(root, folder if config.use_directory_urls else path[:-3] + ".html"))
        body = "".join(f"<url><loc>{escape(url)}</loc></url>\n" for url in urls)
        sitemap = Path(config.site_dir) / locale / "sitemap.xml"
        sitemap.parent.mkdir(parents=True, exist_ok=True)
        sitemap.write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{body}</urlset>\n",
            encoding="utf-8",
        )
