"""One ``<locale>/sitemap.xml`` per locale: Material's language switcher fetches them (the
plugin writes them after a build, ``qbank build`` into its tree)."""

from __future__ import annotations

from urllib.parse import urljoin
from xml.sax.saxutils import escape

from qbank.bank import Bank
from qbank.parts import DEFAULT_PAGE_SIZE
from qbank.render import page_paths


def locale_sitemap(
    bank: Bank,
    locale: str,
    site_url: str,
    directory_urls: bool = True,
    page_size: int = DEFAULT_PAGE_SIZE,
) -> str:
    """``locale``'s sitemap: its generated pages under ``site_url``, sorted, without dates."""
    root = site_url or "/"
    urls = []
    for path in sorted(page_paths(bank, locale, page_size)):
        folder = path.removesuffix("index.md")
        urls.append(urljoin(root, folder if directory_urls else path[:-3] + ".html"))
    body = "".join(f"<url><loc>{escape(url)}</loc></url>\n" for url in urls)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{body}</urlset>\n"
    )
