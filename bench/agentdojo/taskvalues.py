"""The values a policy of the AgentDojo benchmark may not hold (bench/agentdojo/run.py).

A policy that names the suites' addresses, accounts, sites, passwords or ids measures
knowledge of the benchmark, not the language, so the benchmark refuses to replay one.
A *value* is:

- of every task, user or injection: every string and number of its ground-truth calls,
  every string and number it defines (prompt, goal, the constants it keeps), and its
  expected answer;
- of every suite's environment: every string of its data (and every key of it), with the
  injection vectors' default texts;
- inside any of those strings, the pieces that identify something on their own: e-mail
  addresses and their domains, sites (with or without scheme, `www.` or a trailing slash)
  and their hosts, and runs of letters and digits such as IBANs, phone numbers and codes,
  however their groups are separated.

A policy file (comments and inline tests included) holds a value when, case folded:
- a string value of 6 characters or more occurs in it, not inside a longer word;
- a value with a digit in it, 8 letters and digits or more once its separators are
  dropped, occurs in it with or without separators (an IBAN written in groups);
- a number of 3 digits or more occurs in it as a whole number;
- a string literal of the policy, 2 characters or more, is a value (`"Apple"`, `"11"`);
  a label's name (`label result "web"`, `from "web"`) is the policy's own word, compared
  with no data, and is not read.
Shorter strings are words any text holds and small numbers are counts, so they say nothing
of where a policy came from; tool names, argument names and the words of the suites' tool
documentation are never values, whatever the data holds, as a policy is written from them.
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path

STRING_FLOOR = 6
COMPACT_FLOOR = 8
NUMBER_DIGITS = 3

EMAIL = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")
SITE = re.compile(r"(?:https?://)?(?:www\.)?((?:[\w-]+\.)+[a-z]{2,})(/[^\s\"'<>)\]]*)?", re.I)
# A group of an identifier: letters and digits with a digit, or a few capitals (an IBAN's
# bank code); a run of them, one separator apart, is one identifier however it is grouped.
GROUP = r"(?:[A-Za-z]*\d[A-Za-z\d]*|[A-Z]{2,6})"
GROUPS = re.compile(rf"(?<![^\W_]){GROUP}(?:[ .-]{GROUP})*(?![^\W_])")
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]|\.\d)")
LITERAL = re.compile(r'(\blabel\s+\S+\s+|\bfrom\s+)?"((?:[^"\\]|\\.)*)"')
LITERAL_FLOOR = 2


@dataclass(frozen=True)
class Leak:
    """A value found in a policy file."""

    path: Path
    line: int
    value: str
    where: str

    def __str__(self):
        return f"{self.path}:{self.line}: holds {self.value!r}, {self.where}"


class Values:
    """Every value of the suites' tasks and environments, in the forms a policy is read in."""

    def __init__(self):
        self.strings = set()
        self.compact = set()
        self.numbers = set()
        self.exact = set()
        self.doc_words = set()
        self.origin = {}

    def add_doc(self, text):
        """Words of the tool documentation: never values."""
        self.doc_words.update(word.casefold() for word in re.findall(r"\w+", text))

    def add(self, value, origin):
        """A value of a task or an environment, and the pieces inside it."""
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, (int, float)):
            self.add_number(value, origin)
            return
        text = str(value).strip()
        if not text:
            return
        self.add_exact(text, origin)
        self.add_string(text, origin)
        for match in EMAIL.finditer(text):
            self.add_exact(match.group(0), origin)
            self.add_string(match.group(0), origin)
            self.add_string(match.group(1), origin)
        for match in SITE.finditer(text):
            host = match.group(1)
            self.add_string(host, origin)
            self.add_string(host + (match.group(2) or "").rstrip("/"), origin)
        for match in GROUPS.finditer(text):
            self.add_compact(match.group(0), origin)
        if re.fullmatch(r"\d+(?:\.\d+)?", text):
            self.add_number(float(text), origin)

    def add_exact(self, text, origin):
        folded = text.casefold()
        if folded not in self.doc_words:
            self.exact.add(folded)
            self.origin.setdefault(("exact", folded), origin)

    def add_string(self, text, origin):
        folded = text.casefold().strip()
        if len(folded) >= STRING_FLOOR and folded not in self.doc_words:
            self.strings.add(folded)
            self.origin.setdefault(("string", folded), origin)

    def add_compact(self, text, origin):
        compact = re.sub(r"[\W_]", "", text.casefold())
        if len(compact) >= COMPACT_FLOOR and re.search(r"\d", compact):
            self.compact.add(compact)
            self.origin.setdefault(("compact", compact), origin)

    def add_number(self, number, origin):
        if float(number).is_integer():
            number = int(number)
        if len(str(abs(int(number)))) >= NUMBER_DIGITS or not float(number).is_integer():
            self.numbers.add(float(number))
            self.origin.setdefault(("number", float(number)), origin)

    def leaks(self, path, shown=None):
        """Every value the policy file at `path` holds, with its line; the file is named
        `shown` (its path by default)."""
        found = []
        for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
            seen = {}
            for value, where in self.in_line(line):
                seen.setdefault(value.casefold(), (value, where))
            found += [Leak(shown or path, number, value, where) for value, where in seen.values()]
        return found

    def in_line(self, line):
        folded = line.casefold()
        for value in self.strings:
            if value in folded and re.search(
                r"(?<![\w])" + re.escape(value) + r"(?![\w])", folded
            ):
                yield value, self.origin[("string", value)]
        compact = re.sub(r"[\W_]", "", folded)
        for value in self.compact:
            if value in compact:
                yield value, self.origin[("compact", value)]
        for match in NUMBER.finditer(line):
            if float(match.group(0)) in self.numbers:
                yield match.group(0), self.origin[("number", float(match.group(0)))]
        for match in LITERAL.finditer(line):
            literal = match.group(2).casefold()
            if not match.group(1) and len(literal) >= LITERAL_FLOOR and literal in self.exact:
                yield match.group(2), self.origin[("exact", literal)]


def walk(value, origin, values):
    """Every string and number inside JSON-like data (keys included)."""
    if isinstance(value, dict):
        for key, item in value.items():
            values.add(key, origin)
            walk(item, origin, values)
    elif isinstance(value, (list, tuple, set)):
        for item in value:
            walk(item, origin, values)
    else:
        values.add(value, origin)


def task_values(task, env, origin, values):
    """A task's own strings and numbers, and those of its ground-truth calls."""
    for name in dir(type(task)):
        if name.startswith("__"):
            continue
        value = getattr(type(task), name, None)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            values.add(value, f"{origin}.{name}")
    for call in task.ground_truth(env.model_copy(deep=True)):
        walk(jsonable(dict(call.args)), f"{origin} calls {call.function}", values)


def jsonable(value):
    """Arguments as JSON values (dates and models as text)."""
    return json.loads(json.dumps(value, default=str))


def collect(suites):
    """The values of every suite given, as `{name: suite}`."""
    values = Values()
    for suite in suites.values():
        for tool in suite.tools:
            values.add_doc(tool.name)
            values.add_doc(tool.description or "")
            for arg, schema in tool.parameters.model_json_schema().get("properties", {}).items():
                values.add_doc(arg)
                values.add_doc(str(schema.get("description", "")))
    for name, suite in suites.items():
        env = suite.load_and_inject_default_environment({})
        walk(jsonable(env.model_dump()), f"the {name} environment", values)
        walk(suite.get_injection_vector_defaults(), f"the {name} injection defaults", values)
        for task_id, task in suite.user_tasks.items():
            task_values(task, env, f"{name} {task_id}", values)
        for task_id, task in suite.injection_tasks.items():
            task_values(task, env, f"{name} {task_id}", values)
    return values
