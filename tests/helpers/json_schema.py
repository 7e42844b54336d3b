"""A small JSON Schema checker for the keywords the project's schemas use (no third-party package)."""

from __future__ import annotations

from typing import Any

SUPPORTED = {
    "$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties", "required",
    "additionalProperties", "items", "prefixItems", "minItems", "maxItems", "enum", "const",
    "minimum", "maximum",
}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


def keywords_used(node: Any, inside_properties: bool = False) -> set[str]:
    """Every keyword in a schema (property names excluded)."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if not inside_properties:
                found.add(key)
            child_is_map = key in ("properties", "$defs") and not inside_properties
            found |= keywords_used(value, child_is_map)
    elif isinstance(node, list):
        for item in node:
            found |= keywords_used(item)
    return found


def violations(value: Any, node: dict[str, Any], root: dict[str, Any], path: str = "$") -> list[str]:
    """Where ``value`` breaks the schema ``node`` (of ``root``), one line each; empty if it conforms."""
    errors: list[str] = []
    if "$ref" in node:
        target = root
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        errors += violations(value, target, root, path)
    if "type" in node:
        allowed = node["type"] if isinstance(node["type"], list) else [node["type"]]
        if not any(TYPES[t](value) for t in allowed):
            return errors + [f"{path}: {value!r} is not {allowed}"]
    if "const" in node and value != node["const"]:
        errors.append(f"{path}: {value!r} is not {node['const']!r}")
    if "enum" in node and value not in node["enum"]:
        errors.append(f"{path}: {value!r} not in {node['enum']}")
    if TYPES["number"](value):
        if "minimum" in node and value < node["minimum"]:
            errors.append(f"{path}: {value} < {node['minimum']}")
        if "maximum" in node and value > node["maximum"]:
            errors.append(f"{path}: {value} > {node['maximum']}")
    if isinstance(value, dict):
        properties = node.get("properties", {})
        for key in node.get("required", []):
            if key not in value:
                errors.append(f"{path}: missing {key!r}")
        extra = node.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                errors += violations(item, properties[key], root, f"{path}.{key}")
            elif extra is False:
                errors.append(f"{path}: unexpected {key!r}")
            elif isinstance(extra, dict):
                errors += violations(item, extra, root, f"{path}.{key}")
    if isinstance(value, list):
        if len(value) < node.get("minItems", 0) or len(value) > node.get("maxItems", len(value)):
            errors.append(f"{path}: {len(value)} items")
        prefix = node.get("prefixItems", [])
        for i, item in enumerate(value):
            if i < len(prefix):
                errors += violations(item, prefix[i], root, f"{path}[{i}]")
            elif "items" in node:
                errors += violations(item, node["items"], root, f"{path}[{i}]")
    return errors
