"""One ``<locale>/sitemap.xml`` per locale (Material's language switcher fetches them)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig

from qbank.bank import Bank
from qbank.sitemaps import locale_sitemap


def write_locale_sitemaps(bank: Bank, config: MkDocsConfig) -> None:
    """Write ``<locale>/sitemap.xml``: the locale's generated pages, sorted, without dates."""
    for locale in bank.catalog.locales:
        sitemap = Path(config.site_dir) / locale / "sitemap.xml"
        sitemap.parent.mkdir(parents=True, exist_ok=True)
        text = locale_sitemap(bank, locale, config.site_url or "", config.use_directory_urls)
        sitemap.write_text(text, encoding="utf-8")
