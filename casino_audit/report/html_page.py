"""The HTML report's page: how every text is escaped into it, and its style sheet (inline: the file is
self-contained)."""

from __future__ import annotations

import html
import re

from casino_audit.core.display import printable

_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")


# --- escaping --------------------------------------------------------------------------------------------------

def text(value: object, keep_newlines: bool = False) -> str:
    """Element content: escaped, every control or invisible character written as its code and marked."""
    raw = str(value)
    shown = printable(raw, keep_newlines)
    if shown == raw:
        return html.escape(raw, quote=False)
    return "".join(html.escape(char, quote=False) if printable(char, keep_newlines) == char
                   else f'<span class="ctl" title="an invisible or control character, written as its code">'
                        f'{html.escape(printable(char))}</span>' for char in raw)


def attr(value: object) -> str:
    """An attribute value (to be put between double quotes)."""
    return html.escape(printable(value), quote=True)


def data(**values) -> str:
    """` data-name="value"` for each value that is not None (None leaves the attribute out: it reads back as
    None, an empty string as an empty string)."""
    return "".join(f' data-{name.replace("_", "-")}="{attr(value)}"' for name, value in values.items()
                   if value is not None)


def lang(code: str | None) -> str:
    return f' lang="{attr(code)}"' if code and _LANGUAGE_TAG.fullmatch(code) else ""


def plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else plural or word + 's'}"


CSS = """
:root { --ink: #1b1f24; --muted: #5b6470; --rule: #c9ced6; --paper: #fff; --band: #f3f4f6;
  --error: #a4161a; --warning: #8a5a00; --info: #1d4f91; --pass: #1e6b34; }
* { box-sizing: border-box; }
html { background: #e9ebee; }
body { margin: 0; color: var(--ink); font: 10.5pt/1.45 "Noto Sans", "DejaVu Sans", "Segoe UI", Arial, sans-serif; }
.report { max-width: 1180px; margin: 24px auto; padding: 36px 44px; background: var(--paper);
  border: 1px solid var(--rule); }
h1, h2, h3, h4 { font-family: "Noto Serif", "DejaVu Serif", Georgia, "Times New Roman", serif; font-weight: 600;
  line-height: 1.25; }
h1 { font-size: 22pt; margin: 0 0 14px; }
h2 { font-size: 14.5pt; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--ink); }
h3 { font-size: 11.5pt; margin: 18px 0 6px; }
h4 { font-size: 10.5pt; margin: 12px 0 4px; }
code { font: 9pt/1.35 "DejaVu Sans Mono", "Noto Sans Mono", Consolas, monospace; overflow-wrap: anywhere; }
.kicker { margin: 0; font-size: 9pt; letter-spacing: .08em; text-transform: uppercase; color: var(--muted); }
.aside, .label, .facts, .lead, .none, .why, .colophon { color: var(--muted); }
.label { font-size: 8pt; text-transform: uppercase; letter-spacing: .05em; }
.masthead { border-bottom: 1px solid var(--rule); padding-bottom: 10px; }
.verdict { display: flex; gap: 14px; align-items: baseline; margin: 0 0 14px; padding: 10px 14px;
  border: 1px solid var(--rule); border-left: 8px solid var(--ink); background: var(--band); }
.verdict-word { font: 700 16pt/1 "Noto Serif", "DejaVu Serif", Georgia, serif; letter-spacing: .06em; }
.verdict.failed, .verdict.error { border-left-color: var(--error); }
.verdict.failed .verdict-word, .verdict.error .verdict-word { color: var(--error); }
.verdict.passed { border-left-color: var(--pass); }
.verdict.passed .verdict-word { color: var(--pass); }
.verdict.passed.caution { border-left-color: var(--warning); }
.identification { display: grid; grid-template-columns: 11em 1fr; gap: 3px 14px; margin: 0; }
.identification dt { font-weight: 600; color: var(--muted); }
.identification dd { margin: 0; }
.counts { display: grid; grid-template-columns: repeat(8, 1fr); margin: 14px 0; border: 1px solid var(--rule); }
.count { padding: 8px 10px; border-right: 1px solid var(--rule); }
.count:last-child { border-right: 0; }
.count .n { display: block; font-size: 15pt; font-weight: 700; }
.count .label { display: block; }
.count.errors:not(.zero) .n, .count.internal_errors:not(.zero) .n { color: var(--error); }
.count.warnings:not(.zero) .n { color: var(--warning); }
.count.zero .n { color: var(--muted); font-weight: 400; }
.contents ol { columns: 2; margin: 4px 0 0; }
.contents a { color: var(--ink); }
table { width: 100%; border-collapse: collapse; margin: 6px 0 10px; }
th, td { text-align: left; vertical-align: top; padding: 5px 7px; border-bottom: 1px solid var(--rule);
  overflow-wrap: break-word; }
th { font-size: 8.5pt; text-transform: uppercase; letter-spacing: .04em; color: var(--muted);
  border-bottom: 1.5px solid var(--ink); background: var(--band); }
td.num, th.num { text-align: right; }
code.hash { font-size: 8pt; }
.findings { table-layout: fixed; }
.findings .c-no { width: 3.2em; } .findings .c-sev { width: 6.6em; } .findings .c-rule { width: 32%; }
.findings td.no { color: var(--muted); text-align: right; }
.rule-id { font-weight: 700; }
.where { margin-top: 3px; }
.badge { display: inline-block; padding: 0 5px; border: 1px solid currentColor; border-radius: 2px;
  font-size: 7.5pt; font-weight: 700; letter-spacing: .05em; }
.badge.error { color: var(--error); } .badge.warning { color: var(--warning); } .badge.info { color: var(--info); }
.message { margin: 0 0 4px; }
.law { margin: 4px 0 2px; font-size: 9pt; }
.law .article { font-weight: 600; }
.words { margin: 0 0 2px; padding: 3px 10px; border-left: 3px solid var(--rule); white-space: pre-line;
  font: italic 9.5pt/1.4 "Noto Serif", "DejaVu Serif", Georgia, serif; }
.words::before { content: "« "; } .words::after { content: " »"; }
.related-list { margin: 4px 0 0; padding-left: 16px; font-size: 9pt; color: var(--muted); }
.suppression { margin: 6px 0 0; padding: 4px 8px; border: 1px dashed var(--muted); font-size: 9pt; }
.suppression p { margin: 0; }
.suppression dl { display: grid; grid-template-columns: 7em 1fr; margin: 2px 0 0; }
.suppression dd { margin: 0; }
.file { margin-top: 18px; }
.file-name { padding: 5px 8px; background: var(--band); border-top: 2px solid var(--ink); }
.file-name .label { margin-right: 6px; }
.facts { margin: 2px 0 6px; font-size: 9pt; }
.omitted { margin: 2px 0 8px; padding: 4px 8px; background: #fff8e6; border: 1px solid #e8d9a8; font-size: 9pt; }
.ctl { padding: 0 1px; border: 1px solid var(--error); border-radius: 2px; color: var(--error); font-family: monospace; }
.rules .c-rid { width: 38%; } .rules .c-sev { width: 8em; } .rules .c-art { width: 22%; }
.rules .title { color: var(--muted); font-size: 9pt; }
.result { font-weight: 700; }
.result.passed { color: var(--pass); } .result.failed { color: var(--error); } .result.not-applied { color: var(--warning); }
.why { font-size: 9pt; }
.law-changes.weakens h3 { color: var(--warning); }
.colophon { margin-top: 28px; padding-top: 6px; border-top: 1px solid var(--rule); font-size: 8.5pt; }
@media print {
  @page { size: A4; margin: 16mm 14mm 18mm; }
  html, body { background: #fff; }
  body { font-size: 9.5pt; }
  .counts { grid-template-columns: repeat(4, 1fr); }
  .count:nth-child(4) { border-right: 0; }
  .count:nth-child(-n+4) { border-bottom: 1px solid var(--rule); }
  .report { max-width: none; margin: 0; padding: 0; border: 0; }
  .contents { display: none; }
  a { color: inherit; text-decoration: none; }
  .part { break-before: page; }
  .file { break-before: page; margin-top: 0; }
  .file:first-of-type { break-before: avoid; }
  .document + .document { break-before: page; }
  tr, .verdict, .counts, .omitted, .suppression, blockquote, dl { break-inside: avoid; }
  h2, h3, h4, .facts { break-after: avoid; }
  thead { display: table-header-group; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""
