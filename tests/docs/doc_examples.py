"""Extracts the example commands of Markdown files and the doc-test markers beside them.

The syntax is written down in docs/dev/doc-tests.md; in short:

* Every line of a fenced code block whose info string is empty, `sh`, `bash` or `shell`
  is a command (blank lines and lines that are only a `# comment` aside). A trailing
  `# comment` is stripped and a line ending in `\\` continues on the next one. Blocks in
  any other language (python, json, text, ...) and indented code blocks are not read.
* An HTML comment `<!-- doc-test ... -->` right before a block (only blank lines and other
  doc-test comments between) says how the block's commands are tested. Each of its lines
  is one marker: an optional selector in backticks, which picks the command of the block
  that is exactly that text, or else those that contain it (without a selector, the
  marker applies to every command of the block),
  then directives separated by `;`, each `name: value`.

Standard library only: this runs in CI before anything else is installed.
"""

from __future__ import annotations

import dataclasses
import re
import shlex

SHELL_LANGUAGES = {"", "sh", "bash", "shell"}

# Directive names and how their value is read.
DIRECTIVES = ("skip", "xfail", "args", "run", "exit", "files", "same", "output", "group", "timeout")


class DocTestError(Exception):
    """A marker that cannot be understood, named by file and line."""


@dataclasses.dataclass
class Example:
    """One command of a code block, with what its markers say."""

    file: str
    line: int  # first line of the command (1-based)
    written: str  # as a reader sees it: continuations joined, trailing comment stripped
    skip: str | None = None  # reason
    xfail: str | None = None  # reason: the command is known to fail (a bug in the program)
    args: list[str] = dataclasses.field(default_factory=list)  # replacement arguments
    run: str | None = None  # a whole replacement command
    exit: int = 0
    files: list[str] = dataclasses.field(default_factory=list)  # globs that must match
    same: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # byte-equal pairs
    output: list[str] = dataclasses.field(default_factory=list)  # text the output contains
    group: str | None = None
    timeout: float | None = None

    def command(self) -> str:
        """The command that runs: `run`, else the written one with `args` substituted."""
        if self.run is not None:
            return self.run
        if not self.args:
            return self.written
        return shlex.join(substitute_args(shlex.split(self.written), self.args))

    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclasses.dataclass
class Marker:
    line: int
    selector: str | None
    directives: list[tuple[str, str]]
    used: bool = False


def strip_comment(line: str) -> str:
    """The line without a trailing shell comment (a `#` starting a word, outside quotes)."""
    quote = None
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def is_option(word: str) -> bool:
    return word.startswith("-") and len(word) > 1 and not re.fullmatch(r"-[\d.]+", word)


def substitute_args(words: list[str], replacement: list[str]) -> list[str]:
    """The command's words with each option of `replacement` put in: `--set key=v`
    replaces the `--set` of the same key, `--opt value` replaces the value of the same
    option, a flag is kept once; what the command does not have is appended."""
    out = list(words)
    i = 0
    while i < len(replacement):
        opt = replacement[i]
        has_value = i + 1 < len(replacement) and not is_option(replacement[i + 1])
        value = replacement[i + 1] if has_value else None
        i += 2 if has_value else 1
        if not is_option(opt):
            raise ValueError(f"args: '{opt}' is not an option (words start with - or --)")
        if opt == "--set" and value is not None:
            key = value.split("=", 1)[0]
            spots = [j for j in range(len(out) - 1)
                     if out[j] == "--set" and out[j + 1].split("=", 1)[0] == key]
        else:
            spots = [j for j in range(len(out)) if out[j] == opt]
        if spots:
            j = spots[-1]
            if value is not None:
                if j + 1 < len(out) and not is_option(out[j + 1]):
                    out[j + 1] = value
                else:
                    out.insert(j + 1, value)
        else:
            out += [opt] + ([value] if value is not None else [])
    return out


def parse_marker_line(text: str, line: int, file: str) -> Marker:
    selector = None
    text = text.strip()
    if text.startswith("`"):
        end = text.find("`", 1)
        if end < 0:
            raise DocTestError(f"{file}:{line}: doc-test: selector not closed by a backtick")
        selector = text[1:end]
        if not selector:
            raise DocTestError(f"{file}:{line}: doc-test: empty selector")
        text = text[end + 1:].lstrip()
        if text.startswith(":"):
            text = text[1:]
    directives = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition(":")
        name, value = name.strip(), value.strip()
        if name not in DIRECTIVES:
            raise DocTestError(f"{file}:{line}: doc-test: unknown directive '{name}' "
                               f"(allowed: {', '.join(DIRECTIVES)})")
        if not sep or not value:
            raise DocTestError(f"{file}:{line}: doc-test: '{name}' needs a value ('{name}: ...')")
        directives.append((name, value))
    if not directives:
        raise DocTestError(f"{file}:{line}: doc-test: a marker without directives")
    return Marker(line, selector, directives)


def apply_directive(example: Example, name: str, value: str, where: str) -> None:
    try:
        if name in ("skip", "xfail", "run", "group"):
            setattr(example, name, value)
        elif name == "args":
            example.args = shlex.split(value)
            substitute_args(shlex.split(example.written), example.args)  # checks the words
        elif name == "files":
            example.files += shlex.split(value)
        elif name == "same":
            paths = shlex.split(value)
            if len(paths) != 2:
                raise ValueError("names two files")
            example.same.append((paths[0], paths[1]))
        elif name == "output":
            example.output.append(value)
        elif name == "exit":
            example.exit = int(value)
            if not 0 <= example.exit <= 255:
                raise ValueError("an exit code is 0 to 255")
        elif name == "timeout":
            example.timeout = float(value)
            if example.timeout <= 0:
                raise ValueError("a timeout is a positive number of seconds")
    except ValueError as e:
        raise DocTestError(f"{where}: doc-test {name}: {e}") from None


FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)")
COMMENT_START = re.compile(r"^\s*<!--\s*doc-test\b")


def extract(file: str, text: str) -> list[Example]:
    """Every command of the file's shell blocks, in document order, markers applied."""
    lines = text.splitlines()
    examples: list[Example] = []
    pending: list[Marker] = []  # markers waiting for their block
    pending_line = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if COMMENT_START.match(line):
            start = i
            body = line.split("doc-test", 1)[1]
            while "-->" not in body:
                i += 1
                if i >= len(lines):
                    raise DocTestError(f"{file}:{start + 1}: doc-test comment not closed by -->")
                body += "\n" + lines[i]
            body, after = body.split("-->", 1)
            if after.strip():
                raise DocTestError(f"{file}:{i + 1}: text after a doc-test comment on its line")
            body = body.lstrip()
            if body.startswith(":"):
                body = body[1:]
            for k, text_line in enumerate(body.split("\n")):
                if text_line.strip():
                    pending.append(parse_marker_line(text_line, start + 1 + k, file))
            pending_line = pending_line or start + 1
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            _, ticks, lang = fence.groups()
            close = re.compile(r"^\s{0,3}" + re.escape(ticks[0]) + "{" + str(len(ticks)) + r",}\s*$")
            body_start = i + 1
            i += 1
            while i < len(lines) and not close.match(lines[i]):
                i += 1
            block = lines[body_start:i]
            i += 1
            if lang.lower() not in SHELL_LANGUAGES:
                if pending:
                    raise DocTestError(f"{file}:{pending_line}: doc-test markers before a "
                                       f"```{lang} block, which is not read")
                continue
            found = commands_of_block(file, block, body_start + 1)
            apply_markers(file, found, pending)
            examples += found
            pending, pending_line = [], 0
            continue
        if pending and line.strip():
            raise DocTestError(f"{file}:{pending_line}: doc-test markers not followed by a "
                               f"code block (found text at line {i + 1})")
        i += 1
    if pending:
        raise DocTestError(f"{file}:{pending_line}: doc-test markers not followed by a code block")
    return examples


def commands_of_block(file: str, block: list[str], first_line: int) -> list[Example]:
    found = []
    k = 0
    while k < len(block):
        start = k
        text = block[k].strip()
        while text.endswith("\\") and k + 1 < len(block):
            k += 1
            text = text[:-1].rstrip() + " " + block[k].strip()
        k += 1
        command = strip_comment(text).strip()
        if command:
            found.append(Example(file, first_line + start, command))
    return found


def apply_markers(file: str, examples: list[Example], markers: list[Marker]) -> None:
    # Markers for the whole block first, then those with a selector (the closer rule wins).
    # A selector equal to a whole command picks that command only (`fluxview` alone).
    for marker in sorted(markers, key=lambda m: m.selector is not None):
        exact = any(marker.selector == ex.written for ex in examples)
        for ex in examples:
            if (marker.selector is None or marker.selector == ex.written
                    or (not exact and marker.selector in ex.written)):
                marker.used = True
                for name, value in marker.directives:
                    apply_directive(ex, name, value, f"{file}:{marker.line}")
        if not marker.used:
            what = f"`{marker.selector}` matches no command" if marker.selector else "no commands"
            raise DocTestError(f"{file}:{marker.line}: doc-test marker: {what} in the block after it")
