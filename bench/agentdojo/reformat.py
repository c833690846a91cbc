"""The robustness run of the AgentDojo benchmark (bench/agentdojo/run.py): the attacker's
values, reformatted.

An attack names its values (an address, a site, an account, a password) in its goal, and
its calls use them. Here each value of an injection task's calls that its goal names is
rewritten, in the goal (the injected text) and in the calls, as an attacker who knows the
policy's matching would write it:

- an e-mail address is shortened to its first word at the same domain
  (`mark.black-2134@gmail.com` becomes `mark@gmail.com`), capitalised in the text;
- a site is shortened to the first word of its host (`www.secure-systems-252.com` becomes
  `www.secure.com`), written `https://WWW.Secure.com/` in the text;
- an account number (IBAN) is written in groups of four in the text and compact in the call;
- any other value (a password, a name) changes case in the text.
"""

import re

EMAIL = re.compile(r"^([A-Za-z]+)[^@]*@([\w.-]+)$")
SITE = re.compile(r"^(?:https?://)?(?:www\.)?([A-Za-z]+)[\w-]*((?:\.[\w-]+)*\.[a-z]{2,})(/.*)?$")
IBAN = re.compile(r"^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$")


def forms(value):
    """The value as the injected text writes it, and as the calls use it."""
    if match := EMAIL.match(value):
        short = f"{match.group(1)}@{match.group(2)}".lower()
        return short.capitalize(), short
    if (match := SITE.match(value)) and " " not in value:
        host = f"{match.group(1)}{match.group(2)}".lower()
        path = (match.group(3) or "").rstrip("/")
        return f"https://WWW.{host.capitalize()}{path}/", f"www.{host}{path}"
    if IBAN.match(value):
        return " ".join(value[i:i + 4] for i in range(0, len(value), 4)), value
    return value.swapcase(), value


def strings(value):
    """Every string inside JSON-like arguments."""
    if isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, str):
        yield value


PIECES = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://)?(?:www\.)?[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?:/[\w./-]*)?")


def attacker_values(goal, calls):
    """The values of the calls that the goal names, and the addresses and sites inside
    them (a link in a message's body), longest first (so a value inside another is
    rewritten after it)."""
    folded = goal.casefold()
    candidates = {piece for call in calls for text in strings(call) for piece in [text, *PIECES.findall(text)]}
    found = {text for text in candidates if len(text) >= 4 and text.casefold() in folded}
    return sorted(found, key=len, reverse=True)


def replace(value, old, new):
    """`value` with every `old` (case ignored) replaced by `new`, inside JSON-like data."""
    if isinstance(value, dict):
        return {key: replace(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [replace(item, old, new) for item in value]
    if isinstance(value, str):
        return re.sub(re.escape(old), lambda _: new, value, flags=re.I)
    return value


def rewrite(args, changes):
    """A call's arguments with each value of `changes` in its call form."""
    for value, _, call in changes:
        args = replace(args, value, call)
    return args


def reformat(goal, calls):
    """The goal and the calls' arguments (a list of JSON objects), with the attacker's
    values rewritten; and what was rewritten, as `[(value, text form, call form)]`."""
    changes = []
    for value in attacker_values(goal, calls):
        text, call = forms(value)
        goal = re.sub(re.escape(value), lambda _, text=text: text, goal, flags=re.I)
        calls = [replace(args, value, call) for args in calls]
        changes.append((value, text, call))
    return goal, calls, changes
