"""Input fields stricter than DRF's own: JSON integers that are not strings or
booleans, booleans that are not numbers or strings, strings without NUL
characters, positions of a known size."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import engine

# The largest board is 5x5: cells 0..24, at most 25 moves.
MAX_CELL = max(size * size for size, _ in engine.VARIANTS.values()) - 1


class WholeNumberField(serializers.IntegerField):
    """A JSON integer: not a string or a float that happens to look like one."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StringField(serializers.CharField):
    """A JSON string taken as sent: DRF would turn a number into one and trim
    spaces; here a number is invalid and " " is not blank, as the schema says."""

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class TrueOrFalseField(serializers.BooleanField):
    """A JSON boolean: not 0, 1, "yes" or "true" as DRF would also take."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class WholeNumberChoiceField(serializers.ChoiceField):
    """One of a few integers, sent as a JSON integer (or null where allowed), not as a string."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


POSITION_PATTERN = r"^(?:[XO.]{9}|[XO.]{16}|[XO.]{25})$"


@extend_schema_field({"type": "string", "pattern": POSITION_PATTERN, "example": "X...O...."})
class PositionField(StringField):
    """A position's string form. Only the engine says what is wrong with one
    (and why); the pattern in the schema is a guide for clients."""

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_CELL + 1, **kwargs)


class OptionalChoiceField(serializers.ChoiceField):
    """A choice the model stores as "" when there is none: null in JSON."""

    def __init__(self, **kwargs):
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value):
        if value in ("", None):
            return None
        return super().to_representation(value)
