/*
 * fields.h - reading declaration tables: `lock{ name = "x", count = 2 }`.
 *
 * Every declaration of the scenario API and every era is a table of named
 * fields.  These helpers read one field each, check its type and range,
 * and raise a Lua error that names the declaration, the field and what
 * was wrong, at the file:line of the call.  km_fields_only() rejects
 * unknown fields, so a typo ("cpu" for "cpus") is an error, not a silent
 * default.
 */
#ifndef KM_LUA_FIELDS_H
#define KM_LUA_FIELDS_H

#include <lua.h>

#include "../km.h"

/* Raise an error if table @idx has a key not in @allowed (NULL-ended). */
void km_fields_only(lua_State *L, int idx, const char *decl, const char *const allowed[]);

/* A string field: required (error if absent) or @def.  Must be valid
 * UTF-8, 1..KM_NAME_MAX bytes for names. */
#define KM_NAME_MAX 128
const char *km_field_string(lua_State *L, int idx, const char *decl, const char *field,
			    const char *def, bool required);
/* An integer field in [lo, hi]. */
lua_Integer km_field_int(lua_State *L, int idx, const char *decl, const char *field,
			 lua_Integer def, lua_Integer lo, lua_Integer hi);
bool km_field_bool(lua_State *L, int idx, const char *decl, const char *field, bool def);
/* A duration in ns: a non-negative integer (or integral float) <= KM_TIME_MAX. */
km_time km_field_time(lua_State *L, int idx, const char *decl, const char *field,
		      km_time def);
/* Check a value at stack @idx is a duration; @what names it in errors. */
km_time km_check_time(lua_State *L, int idx, const char *what);
/* Check an integer argument (no NaN, no fractions, in int64). */
int64_t km_check_int(lua_State *L, int idx, const char *what);

bool km_utf8_valid(const char *s, size_t len);
/* Whether @s holds a C0 or C1 control character, or DEL. */
bool km_has_control(const char *s, size_t len);

#endif /* KM_LUA_FIELDS_H */
