"""One ``<locale>/sitemap.xml`` per locale (Material's language switcher fetches them)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig

from qbank.bank import Bank
from qbank.sitemaps import locale_sitemap


def write_locale_sitemaps(bank: Bank, config: MkDocsConfig, page_size: int) -> None:
    """Write ``<locale>/sitemap.xml``: the locale's generated pages, sorted, without dates."""
    for locale in bank.catalog.locales:
        sitemap = Path(config.site_dir) / locale / "sitemap.xml"
        sitemap.parent.mkdir(parents=True, exist_ok=True)
        site_url = config.site_url or ""
        text = locale_sitemap(bank, locale, site_url, config.use_directory_urls, page_size)
        sitemap.write_text(text, encoding="utf-8")
