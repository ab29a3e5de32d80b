"""The bytes a card signature covers: A2A 1.0 section 8.4.1's canonical form, and a2a-sdk's."""

from __future__ import annotations

from typing import Any

import rfc8785

from th_ext._exceptions import ThExtError
from th_ext.validate._a2a_model import ENUMS, MESSAGES, ROOT, Field
from th_ext.validate._positions import pointer

__all__ = [
    "MAX_DEPTH",
    "CanonicalFormError",
    "canonical_bytes",
    "canonical_form",
    "empty_values",
    "sdk_form",
]

MAX_DEPTH = 64
"""The deepest nesting a card may have to be canonicalized (the card layer's own bound)."""

_FIELDS: dict[str, dict[str, Field]] = {
    name: {field.json_name: field for field in fields} for name, fields in MESSAGES.items()
}
_DEFAULTS: dict[str, tuple[Any, ...]] = {
    "string": ("",),
    "bytes": ("",),
    "bool": (False,),
    "int": (0,),
    "float": (0,),
}


class CanonicalFormError(ThExtError):
    """The card has no canonical form: nested too deep, or a value RFC 8785 cannot write (an
    integer beyond 2**53, a string that is not Unicode)."""


def canonical_form(card: dict[str, Any]) -> dict[str, Any]:
    """The card as section 8.4.1 signs it (before JCS): presence rules applied, no
    ``signatures``. The card itself is not changed. Which field has explicit presence comes
    from the card model generated from the A2A proto; members the proto does not know are kept
    as written, so that the signature covers all the card says."""
    form = _message(card, ROOT, 1)
    form.pop("signatures", None)
    return form


def sdk_form(card: dict[str, Any]) -> dict[str, Any]:
    """The card as a2a-sdk 1.3 signs it (before JCS): section 8.4.1's form without members the
    proto does not know, then without every empty string, list, object and null: so that a
    verifier tells a card the SDK signed from one altered on its way."""
    cleaned = _clean(_known(canonical_form(card), ROOT, 1), 1)
    return cleaned if isinstance(cleaned, dict) else {}


def canonical_bytes(form: dict[str, Any]) -> bytes:
    """RFC 8785's serialization of ``form``; ``CanonicalFormError`` when it has none."""
    _check_depth(form, 1)
    try:
        return rfc8785.dumps(form)
    except rfc8785.CanonicalizationError as exc:
        raise CanonicalFormError(f"the card has no RFC 8785 canonical form ({exc})") from None
    except (UnicodeEncodeError, RecursionError):
        raise CanonicalFormError(
            "the card has no RFC 8785 canonical form (text that is not Unicode)"
        ) from None


def empty_values(card: dict[str, Any]) -> list[str]:
    """The JSON pointers of what section 8.4.1's form keeps and a2a-sdk's drops: empty strings,
    lists and objects and nulls (the outermost of each), and members the proto does not know.
    Removing them from the card makes the two forms one."""
    form = canonical_form(card)
    found: list[str] = []
    _walk_removed(form, _known(form, ROOT, 1), "", found)
    return found


def _message(value: dict[str, Any], name: str, depth: int) -> dict[str, Any]:
    _check_container(depth)
    fields = _FIELDS.get(name, {})
    form: dict[str, Any] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None:
            form[key] = item  # not in the proto: kept as written
        elif _kept(field, item):
            form[key] = _field_value(field, item, depth + 1)
    return form


def _kept(field: Field, item: Any) -> bool:
    """Whether a member present in the card stays in the canonical form."""
    if item is None:
        return False  # null is "not set" in the proto's JSON mapping
    if field.required or (field.presence and not field.repeated):
        return True
    if field.repeated or field.kind == "map":
        return not (isinstance(item, list | dict) and not item)
    if field.kind == "enum":
        values = ENUMS.get(field.target, ())
        return item not in (0, values[0] if values else 0)
    defaults = _DEFAULTS.get(field.kind, ())
    return not any(item == d and type(item) in (type(d), int, float) for d in defaults)


def _field_value(field: Field, item: Any, depth: int) -> Any:
    if field.kind == "message" and field.target in _FIELDS:
        if field.repeated and isinstance(item, list):
            _check_container(depth)
            return [
                _message(e, field.target, depth + 1) if isinstance(e, dict) else e for e in item
            ]
        if isinstance(item, dict):
            return _message(item, field.target, depth)
    if field.kind == "map" and field.target in _FIELDS and isinstance(item, dict):
        _check_container(depth)
        return {
            k: _message(v, field.target, depth + 1) if isinstance(v, dict) else v
            for k, v in item.items()
        }
    _check_depth(item, depth)
    return item  # scalars, scalar lists and maps, Struct contents: as written


def _known(value: dict[str, Any], name: str, depth: int) -> dict[str, Any]:
    """``value`` (a form) without the members the proto does not know, at every level."""
    fields = _FIELDS.get(name, {})
    return {
        key: _known_value(fields[key], item, depth) for key, item in value.items() if key in fields
    }


def _known_value(field: Field, item: Any, depth: int) -> Any:
    if field.kind not in ("message", "map") or field.target not in _FIELDS:
        return item
    if isinstance(item, list):
        return [_known(e, field.target, depth + 1) if isinstance(e, dict) else e for e in item]
    if field.kind == "map" and isinstance(item, dict):
        return {
            k: _known(v, field.target, depth + 1) if isinstance(v, dict) else v
            for k, v in item.items()
        }
    return _known(item, field.target, depth + 1) if isinstance(item, dict) else item


def _clean(value: Any, depth: int) -> Any:
    """a2a-sdk's clean-up: empty strings, lists, objects and nulls removed, innermost first
    (``None`` when ``value`` itself is removed)."""
    if isinstance(value, dict):
        _check_container(depth)
        cleaned = {k: c for k, v in value.items() if (c := _clean(v, depth + 1)) is not None}
        return cleaned or None
    if isinstance(value, list):
        _check_container(depth)
        items = [c for v in value if (c := _clean(v, depth + 1)) is not None]
        return items or None
    if value is None or value == "":
        return None
    return value


def _walk_removed(form: Any, known: Any, path: str, found: list[str]) -> None:
    if isinstance(form, dict):
        for key, item in form.items():
            where = path + pointer([key])
            if not isinstance(known, dict) or key not in known or _clean(item, 1) is None:
                found.append(where)
            else:
                _walk_removed(item, known[key], where, found)
    elif isinstance(form, list) and isinstance(known, list):
        for index, (item, kept) in enumerate(zip(form, known, strict=True)):
            where = path + pointer([index])
            if _clean(item, 1) is None:
                found.append(where)
            else:
                _walk_removed(item, kept, where, found)


def _check_container(depth: int) -> None:
    if depth > MAX_DEPTH:
        raise CanonicalFormError(f"the card is nested deeper than {MAX_DEPTH} levels")


def _check_depth(value: Any, depth: int) -> None:
    """Bound the nesting of a value taken as written, without recursing on the way down."""
    todo = [(value, depth)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            _check_container(level)
            children = item.values() if isinstance(item, dict) else item
            todo.extend((child, level + 1) for child in children if isinstance(child, dict | list))
