"""The ``qbank`` command: thin click commands over the core."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from qbank import __version__
from qbank.bank.problems import ContentError, errors_in, format_problems
from qbank.bank.progress import Report, no_progress
from qbank.tools.progressbar import shown

if TYPE_CHECKING:
    from qbank.bank.loaded import Bank

# The bank's modules (pydantic, PyYAML, numpy: most of the start-up) are imported by the
# commands that use them, so that `qbank --version` and `qbank --help` start at once.

DEFAULT_CONTENT = "content"

content_option = click.option(
    "--content",
    type=click.Path(path_type=Path),
    default=DEFAULT_CONTENT,
    show_default=True,
    help="The content folder (the one holding catalog.yaml).",
)
quiet_option = click.option(
    "--quiet", "-q", is_flag=True, help="Show no progress (it goes to stderr, after 2 s)."
)


def _bank_root(path: Path) -> Path:
    """The content folder holding catalog.yaml at or above ``path``."""
    from qbank.bank.catalog import CATALOG_FILE

    probe = path.resolve()
    if probe.is_file():
        probe = probe.parent
    for candidate in (probe, *probe.parents):
        if (candidate / CATALOG_FILE).is_file():
            return candidate
    return path


def _load(content: Path, progress: Report = no_progress) -> Bank:
    from qbank.bank.load import load_bank

    try:
        return load_bank(content, progress=progress)
    except ContentError as exc:
        raise click.ClickException(
            exc.format_text() + "\nthe bank has errors; run `qbank validate` for details"
        ) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="qbank")
def main() -> None:
    """qbank: interview and study question banks as YAML, published as a study site."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "style",
    type=click.Choice(["text", "github", "json"]),
    default="text",
    show_default=True,
    help="How to print problems.",
)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@content_option
@quiet_option
def validate(paths: tuple[Path, ...], style: str, strict: bool, content: Path, quiet: bool) -> None:
    """Check every question file of the bank and report every problem in one run.

    PATHS are content folders or files inside them (default: the --content folder); the
    whole bank around each is checked, because ids and prompts must be unique across files.
    """
    from qbank.bank.catalog import CATALOG_FILE
    from qbank.bank.load import validate_bank

    roots = sorted({_bank_root(p) for p in (paths or (content,))})
    problems = []
    counted = 0
    for root in roots:
        if not root.is_dir():
            raise click.ClickException(
                f"{root}: no such content folder; expected a folder holding {CATALOG_FILE}"
            )
    with shown("validate", quiet=quiet) as progress:
        for root in roots:
            questions, found = validate_bank(root, progress)
            problems += found
            counted += questions
    if problems or style == "json":  # JSON readers always get a list, even an empty one
        click.echo(format_problems(problems, style))
    errors = errors_in(problems)
    warnings = len(problems) - len(errors)
    if style == "text":
        summary = (
            f"{len(errors)} error(s), {warnings} warning(s)"
            if problems
            else f"ok: {counted} question(s), no problems"
        )
        click.echo(summary, err=bool(problems))
    if errors or (strict and warnings):
        sys.exit(1)


@main.command()
@click.argument("where", metavar="FIELD/TOPIC", default="")  # none: list the topics
@click.option(
    "--type",
    "kind",
    type=click.Choice(["choice", "open"]),
    default="choice",
    show_default=True,
    help="A choice question (options) or an open one.",
)
@click.option(
    "--locales",
    default=None,
    help="Comma-separated locales to fill, e.g. en,tr,zh (default: all the catalog's).",
)
@click.option("--slug", default=None, help="File name without .yaml (default: new-question-N).")
@content_option
def new(where: str, kind: str, locales: str | None, slug: str | None, content: Path) -> None:
    """Write a ready-to-fill question file with a fresh UUIDv7 in FIELD/TOPIC."""
    from qbank.bank.catalog import CATALOG_FILE
    from qbank.tools.scaffold import new_question, schema_path

    if not (content / CATALOG_FILE).is_file():  # run inside the bank: find it, as validate does
        content = _bank_root(content)
    try:
        path = new_question(
            content, where, kind=kind, slug=slug, locales=locales.split(",") if locales else None
        )
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(Path(os.path.relpath(path)).as_posix() if path.is_absolute() else path.as_posix())
    schema = schema_path(content)
    if not schema.is_file():
        folder = Path(os.path.relpath(schema.parent)).as_posix()
        click.echo(
            f"note: {folder}/{schema.name} does not exist yet; run `qbank schema {folder}` "
            "so that editors complete and check the file",
            err=True,
        )


@main.command()
@click.option(
    "--format", "style", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@content_option
def stats(style: str, content: Path) -> None:
    """Coverage per field, specialization, topic, seniority, difficulty and locale."""
    from qbank.tools.stats import bank_stats, format_stats

    data = bank_stats(_load(content))
    if style == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(format_stats(data))


@main.command()
@click.argument("directory", type=click.Path(path_type=Path), required=False)
@content_option
def schema(directory: Path | None, content: Path) -> None:
    """Write JSON Schemas for catalog.yaml and question files (for editor completion) and
    for `qbank export json`, into DIRECTORY (default: schemas/ beside the content folder,
    where `qbank new` points question files)."""
    from qbank.tools.scaffold import schema_path
    from qbank.tools.schema import write_schemas

    if directory is None:
        directory = Path(os.path.relpath(schema_path(content).parent))
    for path in write_schemas(directory):
        click.echo(path.as_posix())


@main.command()
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False), default=".")
@click.option(
    "--locales",
    default="en",
    show_default=True,
    help="Comma-separated locales of the bank, the first its source locale (en, tr, zh).",
)
@click.option("--title", default=None, help="The site's title (default: 'Question bank').")
@content_option
def init(directory: Path, locales: str, title: str | None, content: Path) -> None:
    """Lay out a bank repository in DIRECTORY (default: here) that works as it is: mkdocs.yml,
    CONTENT/catalog.yaml with an example question per locale, docs/, the GitHub workflows,
    pull-request template and issue form, pre-commit and editor settings, schemas/.
    Files that exist are kept as they are."""
    from qbank.tools.starter import lay_out

    if content.is_absolute() or ".." in content.parts:
        raise click.ClickException(f"--content {content}: expected a folder inside DIRECTORY")
    try:
        layout = lay_out(directory, locales.split(","), content_dir=content.as_posix(), title=title)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    for path in layout.written:
        click.echo(Path(os.path.relpath(path)).as_posix())
    for path in layout.kept:
        click.echo(f"kept as it was: {Path(os.path.relpath(path)).as_posix()}", err=True)
    where = "" if directory.resolve() == Path.cwd() else f"cd {directory.as_posix()} && "
    click.echo(
        f"next: {where}pip install -r requirements.txt; qbank validate; mkdocs serve",
        err=True,
    )


@main.group()
def translations() -> None:
    """Track which translations follow the current source-locale text."""


@translations.command("mark-current")
@click.argument("question_id", metavar="ID")
@click.argument("locale")
@content_option
def translations_mark_current(question_id: str, locale: str, content: Path) -> None:
    """Record that the LOCALE translation of question ID matches its source text now.

    Only the translated_from lines of the question's file are rewritten.
    """
    from qbank.bank.problems import display_path
    from qbank.tools.translated import mark_current

    try:
        path, value = mark_current(content, question_id, locale)
    except ContentError as exc:
        raise click.ClickException(exc.format_text()) from None
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{display_path(path)}: translated_from.{locale} = {value}")


@translations.command("status")
@content_option
def translations_status(content: Path) -> None:
    """Per locale: translations current, stale (may be out of date) and untracked."""
    from qbank.bank.problems import display_path
    from qbank.bank.staleness import stale_translations, translation_status

    bank = _load(content)
    for counts in translation_status(bank):
        click.echo(
            f"{counts.locale}: {counts.translations} translation(s), {counts.current} current, "
            f"{counts.stale} may be out of date, {counts.untracked} untracked"
        )
    for item in stale_translations(bank):
        click.echo(
            f"{display_path(content / item.file)}: {item.locale} may be out of date "
            f"({item.source_locale} text changed; `qbank translations mark-current "
            f"{item.id} {item.locale}` once updated)"
        )


@main.command("import")
@click.argument(
    "kind",
    metavar="FORMAT",
    type=click.Choice(["payload", "topic-page", "interview", "markdown-quiz"]),
)
@click.argument("source", type=click.Path(path_type=Path))
@content_option
@click.option("--field", default=None, help="Field key (topic-page, interview, markdown-quiz).")
@click.option(
    "--topic", default=None, help="Topic key (topic-page, interview; markdown-quiz: one file)."
)
@click.option("--locale", default=None, help="Locale of the text (default: tr, zh).")
@click.option("--seniority", default=None, help="Seniority of interview questions.")
@click.option(
    "--keep-personal-notes",
    is_flag=True,
    help="interview: put the candidate's profile and the review (点评) into each question's "
    "source note, which the site publishes (default: left out).",
)
@click.option("--write", is_flag=True, help="Write the files (default: only show them).")
@quiet_option
def import_(
    kind: str,
    source: Path,
    content: Path,
    field: str | None,
    topic: str | None,
    locale: str | None,
    seniority: str | None,
    keep_personal_notes: bool,
    write: bool,
    quiet: bool,
) -> None:
    """Turn SOURCE into question files and catalog entries; a dry run unless --write.

    \b
    FORMAT is one of:
      payload     a Nuxt devalue payload: the catalog (fields, specializations,
                  topics, seniorities, locales) and sample choice questions
      topic-page  a plain-text topic page: 'Zorluk N', options a-d with the right
                  one marked ✓, 'Açıklama:' (field/topic from the title or options)
      interview   a Chinese interview record: 问题N, 考察目标, 回答 (needs
                  --field and --topic); the profile and 点评 are left out
                  (--keep-personal-notes: into the source note)
      markdown-quiz  a GitHub Markdown quiz, or a folder of them: numbered
                  headings with - [ ] / - [x] options, or - A: options and a
                  <details> answer; translations (name-zh.md, zh-CN/README-zh_CN.md)
                  join their source questions on strong evidence only; one topic
                  per quiz file in --field (default quizzes); what is not read or
                  not aligned is listed as file:line

    Only the fields, specializations and topics the questions are in are added.
    Payload topics map to specializations by key prefix: cml- classical-ml,
    dl- deep-learning, fe- feature-engineering, ti- training-infrastructure,
    anything else general. catalog.yaml keeps its entries and order; new ones are
    added at the end, and when it changes it is rewritten in a stable layout
    (comments in it are lost). Ids come from the source or, without one, from the
    prompt (UUIDv5), so importing again changes nothing; a file is never overwritten.
    """  # noqa: RUF002
    from qbank.bank.load import check_bank
    from qbank.bank.problems import display_path
    from qbank.tools.importers import SourceError, apply_plan, plan_import, read_source

    with shown("import", quiet=quiet) as progress:
        progress("reading the source", 0, 0)
        try:
            parsed = read_source(
                kind,
                source,
                display_path(source),
                field=field,
                topic=topic,
                locale=locale,
                seniority=seniority,
                keep_personal_notes=keep_personal_notes,
            )
            plan = plan_import(content, parsed, progress)
        except SourceError as exc:
            raise click.ClickException(str(exc)) from None
        if write:
            apply_plan(plan, progress)
    for line in plan.report(written=write):
        click.echo(line)
    new = len(plan.new_files)
    click.echo(
        f"{len(plan.files)} question(s): {new} new, {len(plan.files) - new} already in the bank"
        + ("" if write else "; run again with --write to write them"),
        err=True,
    )
    if write:
        with shown("import", quiet=quiet) as progress:
            _bank, problems = check_bank(content, progress=progress)
        if errors_in(problems):
            click.echo(format_problems(errors_in(problems), "text"), err=True)
            raise click.ClickException("the bank has errors after the import")


@main.command()
@click.argument("kind", metavar="FORMAT", type=click.Choice(["json", "anki", "moodle"]))
@click.argument("out", type=click.Path(path_type=Path))
@click.option("--locale", default=None, help="One locale (default: every catalog locale).")
@content_option
@quiet_option
def export(kind: str, out: Path, locale: str | None, content: Path, quiet: bool) -> None:
    """Export the bank for other tools: json, anki (.apkg) or moodle (Moodle XML).

    With --locale, OUT is the file to write; without it, OUT is a folder that gets one
    file per catalog locale (bank.<locale>.json / .apkg / .xml). The JSON follows
    schemas/bank-export.schema.json; Anki notes keep their GUIDs across edits.
    """
    from qbank.tools.exporters import export as export_bank

    with shown("export", quiet=quiet) as progress:
        bank = _load(content, progress)
        try:
            paths = export_bank(bank, kind, out, locale, progress)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
    for path in paths:
        click.echo(path.as_posix())


@main.command()
@click.argument("site_dir", type=click.Path(path_type=Path, file_okay=False))
@content_option
def verify(site_dir: Path, content: Path) -> None:
    """Check a built SITE_DIR against the bank: every question once per locale with its
    options and answer key, no missing asset, no third-party script, style or font, and
    internal links (with their anchors) that resolve, edit links that open each question's
    file in the repository (run it from the repository's root) and source links that are
    http(s) URLs. Prints the site's size, file count
    and largest file against GitHub Pages, Cloudflare Pages and GitLab Pages, and fails
    when GitHub Pages would refuse the site. Exits 1 listing every problem.
    """
    from qbank.bank.problems import display_path
    from qbank.tools.hosts import GITHUB_PAGES, host_report, refusals, site_weight
    from qbank.tools.verify import verify_site

    if not site_dir.is_dir():
        raise click.ClickException(f"{site_dir}: no such site folder; expected a built site")
    bank = _load(content)
    label = display_path(content)
    # edit links name the bank's folder relative to the repository: run from its root
    in_repository = label if not Path(label).is_absolute() else content.resolve().name
    problems = verify_site(site_dir, bank, label, in_repository)
    for problem in problems:
        click.echo(problem.format_text())
    weight = site_weight(site_dir)
    for line in host_report(weight):
        click.echo(line)
    too_big = refusals(weight, GITHUB_PAGES)
    if too_big:
        click.echo(
            f"{display_path(site_dir)}: GitHub Pages would refuse this site: {'; '.join(too_big)};"
            " expected a site it takes (fewer questions or locales a site, or another host)",
            err=True,
        )
    if problems or too_big:
        if problems:
            click.echo(f"{len(problems)} problem(s) in {display_path(site_dir)}", err=True)
        sys.exit(1)
    click.echo(f"ok: {len(bank.entries)} question(s) verified in {display_path(site_dir)}")


@main.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    default="build/publish",
    show_default=True,
    help="Where to write the docs tree (its mkdocs.yml, docs/ and overrides/).",
)
@click.option(
    "--config-file",
    type=click.Path(path_type=Path, dir_okay=False),
    default="mkdocs.yml",
    show_default=True,
    help="The site's mkdocs.yml whose settings the tree's config carries (optional).",
)
@click.option("--watch", is_flag=True, help="Keep the tree up to date on edits of the bank.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="The persistent cache's folder (default: .cache/qbank beside the config file; "
    "safe to delete).",
)
@click.option("--no-cache", is_flag=True, help="Read and write no persistent cache.")
@content_option
@quiet_option
def build(
    out: Path,
    config_file: Path,
    watch: bool,
    cache_dir: Path | None,
    no_cache: bool,
    content: Path,
    quiet: bool,
) -> None:
    """Write the bank as a docs tree that MkDocs, ProperDocs or Zensical publishes without
    the qbank plugin: `mkdocs build -f OUT/mkdocs.yml` (or `properdocs build -f …`,
    `zensical build -f …`). Only files whose bytes changed are rewritten.
    """
    from qbank.bank.problems import display_path
    from qbank.tree.build import TreeBuilder

    builder = TreeBuilder(
        content, out, config_file, keep=watch, cache=not no_cache, cache_dir=cache_dir
    )
    try:
        with shown("build", quiet=quiet) as progress:
            report = builder.build(progress)
    except ContentError as exc:
        raise click.ClickException(
            exc.format_text() + "\nnothing was written; the tree is as it was"
        ) from None
    click.echo(
        f"{display_path(out)}: {len(report.written)} file(s) written, "
        f"{report.unchanged} unchanged, {len(report.removed)} removed"
    )
    if watch:
        from qbank.tree.watch import watch_tree

        watch_tree(builder, click.echo)
