"""dapvisor's corrections to the Rust toolchain's LLDB formatters, loaded after them
into lldb-dap (see rust_formatters_fix.rs for how, and why each is needed).

- Enums: lldb names the variants of a Rust enum `$variant$N`, N the variant's
  discriminant cut to 32 bits, and the toolchain's provider picks the variant whose
  name spells the discriminant read from memory. A niche in a String's or Vec's
  capacity has discriminants of 2**63 and up, so no name matched a unit variant,
  whose bytes were read as the dataful variant's: a String of garbage length, whose
  summary failed, after which the summary walked its trillions of characters; and a
  capacity of 1 matched the variant named 1 (2**63 + 1). Here a capacity niche is
  told apart (see active_variant), and the summary is bounded.
- Strings: a String's summary reads at most MAX_STRING_BYTES, and says what it
  could not read instead of raising (a moved or uninitialized String).
- Hash maps and sets: lldb may ask for more children than the toolchain's provider
  found in memory (a moved map), which raised IndexError; the count is bounded by
  the entries it can give.
"""

import lldb

VARIANTS = "$variants$"
DISCRIMINANT = "$discr$"
VARIANT_PREFIX = "$variant$"
VARIANT_SUFFIX = "$Variant"
LOW_32_BITS = 0xFFFFFFFF
# The first invalid capacity, where a capacity's niche starts.
CAPACITY_NICHE = 1 << 63
# The deepest a discriminant's field is looked for in the dataful variant.
MAX_FIELD_PATH = 16

# A summary shows at most this many fields, nested at most this deep, and this many
# characters of each String.
MAX_SUMMARY_FIELDS = 8
MAX_SUMMARY_DEPTH = 2
MAX_STRING_BYTES = 4096


def is_enum(sbtype, _dict):
    """A Rust enum as lldb builds it from DWARF: a struct whose first field is
    `$variants$`."""
    return sbtype.GetNumberOfFields() > 0 and sbtype.GetFieldAtIndex(0).GetName() == VARIANTS


def named_number(variant):
    """N of lldb's name for a variant, `$variant$N`; None for the dataful variant
    (`$variant$`) or another name."""
    digits = variant.GetName()[len(VARIANT_PREFIX):]
    return int(digits) if variant.GetName().startswith(VARIANT_PREFIX) and digits.isdigit() else None


def active_variant(enum):
    """The variant the enum holds: the one whose discriminant is read, else the one
    with none (the dataful variant of a niche-encoded enum); None if neither.

    A name's N is the discriminant cut to 32 bits. Where the niche is a capacity
    (no valid value has its top bit), the discriminants are 2**63 and up: a variant
    is held when the value read has the top bit and its low 32 bits are N, and a
    smaller value is the dataful variant's capacity, however it compares with N.
    Elsewhere the discriminants fit in 32 bits and N is exact (a tagged enum's
    discriminants past 32 bits, which no name can tell apart, are matched on their
    low bits as a last resort)."""
    variants = enum.GetNonSyntheticValue().GetChildMemberWithName(VARIANTS)
    dataful = None
    read = []
    for i in range(variants.GetNumChildren()):
        variant = variants.GetChildAtIndex(i)
        discriminant = variant.GetChildMemberWithName(DISCRIMINANT)
        if discriminant.IsValid():
            read.append((variant, named_number(variant), discriminant.GetValueAsUnsigned()))
        else:
            dataful = variant
    if dataful is not None and niche_is_a_capacity(enum.GetType(), dataful, read):
        held = [v for v, n, value in read if value >= CAPACITY_NICHE and value & LOW_32_BITS == n]
    else:
        held = [v for v, n, value in read if value == n]
        if not held and dataful is None:
            held = [v for v, n, value in read if value > LOW_32_BITS and value & LOW_32_BITS == n]
    return held[0] if held else dataful


# Whether an enum type's niche is a capacity, by its name (the layout is the type's).
CAPACITY_NICHES = {}


def niche_is_a_capacity(enum_type, dataful, read):
    """Whether the field the discriminant is read from is, in the dataful variant, a
    capacity (`UsizeNoHighBit`, or a field named `cap` before it existed)."""
    name = enum_type.GetName()
    if name not in CAPACITY_NICHES:
        offset = first_discriminant_offset(read)
        path = fields_at(dataful.GetChildMemberWithName("value").GetType(), offset)
        CAPACITY_NICHES[name] = any(
            field == "cap" or type_name.endswith("UsizeNoHighBit") for field, type_name in path
        )
    return CAPACITY_NICHES[name]


def first_discriminant_offset(read):
    """Where in the enum the discriminant is read (each variant reads it alike)."""
    if not read:
        return None
    variant_type = read[0][0].GetType()
    for i in range(variant_type.GetNumberOfFields()):
        if variant_type.GetFieldAtIndex(i).GetName() == DISCRIMINANT:
            return variant_type.GetFieldAtIndex(i).GetOffsetInBytes()
    return None


def fields_at(sbtype, offset):
    """The fields, outermost first, that hold the byte at `offset` of a `sbtype`, as
    (field name, type name) pairs."""
    path = []
    while offset is not None and len(path) < MAX_FIELD_PATH:
        inside = None
        for i in range(sbtype.GetNumberOfFields()):
            field = sbtype.GetFieldAtIndex(i)
            start = field.GetOffsetInBytes()
            if start <= offset < start + field.GetType().GetByteSize():
                inside = field
                break
        if inside is None:
            break
        path.append((inside.GetName(), inside.GetType().GetName()))
        offset -= inside.GetOffsetInBytes()
        sbtype = inside.GetType()
    return path


def variant_name(variant):
    """`Named` from the variant's type, `...::Shape$Inner::Named$Variant`."""
    name = variant.GetType().GetName().rsplit("::", 1)[-1]
    return name[: -len(VARIANT_SUFFIX)] if name.endswith(VARIANT_SUFFIX) else name


class EnumProvider:
    """An enum's children: the fields of the variant it holds."""

    def __init__(self, enum, _dict):
        self.enum = enum
        self.fields = None
        self.update()

    def update(self):
        variant = active_variant(self.enum)
        self.fields = variant.GetChildMemberWithName("value").GetSyntheticValue() if variant else None
        return False

    def num_children(self, max_children=None):
        return self.fields.GetNumChildren() if self.fields else 0

    def get_child_index(self, name):
        return self.fields.GetIndexOfChildWithName(name) if self.fields else -1

    def get_child_at_index(self, index):
        return self.fields.GetChildAtIndex(index) if self.fields else None

    def has_children(self):
        return self.num_children() > 0


def enum_summary(enum, _dict):
    """`Named("a")`, `Courier{days:1}` or `Empty`."""
    variant = active_variant(enum)
    if variant is None:
        return "<unknown variant>"
    fields = variant.GetChildMemberWithName("value").GetSyntheticValue()
    if fields.GetNumChildren() == 0:
        return variant_name(variant)
    return variant_name(variant) + brief(fields, 1)


def brief(value, depth):
    """A value in one bounded line: its summary or scalar value, or its first fields."""
    text = value.GetSummary() or value.GetValue()
    if text is not None:
        return text
    count = value.GetNumChildren(MAX_SUMMARY_FIELDS + 1)
    if count == 0:
        return "{}"
    if depth > MAX_SUMMARY_DEPTH:
        return "{...}"
    children = [value.GetChildAtIndex(i) for i in range(min(count, MAX_SUMMARY_FIELDS))]
    more = [", ..."] if count > MAX_SUMMARY_FIELDS else []
    if all(is_position(child.GetName()) for child in children):
        return "(" + ", ".join([brief(c, depth + 1) for c in children] + more) + ")"
    parts = ["%s:%s" % (c.GetName(), brief(c, depth + 1)) for c in children]
    return "{" + ", ".join(parts + more) + "}"


def is_position(name):
    """A tuple field's name: `0`, `__0`."""
    return name is not None and name.lstrip("_").isdigit()


def string_summary(string, _dict):
    """A String's text, at most MAX_STRING_BYTES of it."""
    vec = string.GetNonSyntheticValue().GetChildMemberWithName("vec").GetNonSyntheticValue()
    length = vec.GetChildMemberWithName("len").GetValueAsUnsigned()
    if length == 0:
        return '""'
    pointer = first_pointer(vec.GetChildMemberWithName("buf"))
    if pointer is None:
        return "<String of %d bytes, its buffer not found>" % length
    wanted = min(length, MAX_STRING_BYTES)
    error = lldb.SBError()
    data = string.GetProcess().ReadMemory(pointer, wanted, error)
    if not error.Success():
        return "<String of %d bytes, unreadable at %#x>" % (length, pointer)
    text = data.decode("utf8", "replace")
    return '"%s"' % text + ("..." if wanted < length else "")


def first_pointer(value):
    """The first pointer found depth-first in a Vec's `buf` (its layout changes
    between Rust versions: RawVec, RawVecInner, Unique, NonNull)."""
    for _ in range(8):
        if value.GetType().IsPointerType():
            return value.GetValueAsUnsigned()
        if value.GetNumChildren() == 0:
            return None
        named = [value.GetChildAtIndex(i) for i in range(value.GetNumChildren())]
        pointers = [v for v in named if v.GetName() in ("inner", "ptr", "pointer")]
        value = pointers[0] if pointers else named[0]
    return None


class CountedProvider:
    """The toolchain's provider for a hash map or set, its child count bounded by the
    children it can give."""

    def __init__(self, value, internal_dict):
        import lldb_lookup

        self.inner = lldb_lookup.synthetic_lookup(value, internal_dict)
        self.count = 0
        self.update()

    def update(self):
        self.inner.update()
        self.count = gives_children(self.inner, self.inner.num_children())
        return False

    def num_children(self, max_children=None):
        return self.count

    def get_child_index(self, name):
        index = self.inner.get_child_index(name)
        return index if 0 <= index < self.count else -1

    def get_child_at_index(self, index):
        return self.inner.get_child_at_index(index) if 0 <= index < self.count else None

    def has_children(self):
        return True


def gives_children(provider, claimed):
    """How many of its first `claimed` children `provider` gives: all of them, or as
    many as come before the first it fails on (found by halving)."""
    if claimed == 0 or gives(provider, claimed - 1):
        return claimed
    low, high = 0, claimed - 1  # children below `low` are given; `high` is not
    while low < high:
        middle = (low + high) // 2
        if gives(provider, middle):
            low = middle + 1
        else:
            high = middle
    return low


def gives(provider, index):
    try:
        child = provider.get_child_at_index(index)
    except (IndexError, KeyError, ValueError):
        return False
    return child is not None and child.IsValid()
