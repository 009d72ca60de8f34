/*
 * fields.c - checked reading of declaration tables.  See fields.h.
 */
#include "fields.h"

#include <lauxlib.h>

#include <math.h>
#include <string.h>

bool km_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		unsigned c = *p;
		int n;
		if (c < 0x80) {
			p++;
			continue;
		} else if ((c & 0xe0) == 0xc0 && c >= 0xc2) {
			n = 1;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
		} else if ((c & 0xf8) == 0xf0 && c <= 0xf4) {
			n = 3;
		} else {
			return false;
		}
		if (end - p <= n)
			return false;
		for (int i = 1; i <= n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return false;
		/* RFC 3629: no overlong forms (E0 80..9F, F0 80..8F), no
		 * surrogates (ED A0..BF), nothing above U+10FFFF (F4 90..) */
		if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
		    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
			return false;
		p += n + 1;
	}
	return true;
}

bool km_has_control(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return true;
		/* C1 controls, U+0080..U+009F (CSI is U+009B) */
		if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			return true;
	}
	return false;
}

void km_fields_only(lua_State *L, int idx, const char *decl, const char *const allowed[])
{
	idx = lua_absindex(L, idx);
	luaL_checktype(L, idx, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		bool ok = false;
		if (lua_type(L, -1) == LUA_TSTRING) {
			const char *k = lua_tostring(L, -1);
			for (int i = 0; allowed[i]; i++)
				if (!strcmp(k, allowed[i]))
					ok = true;
		}
		if (!ok) {
			luaL_Buffer b;
			luaL_buffinit(L, &b);
			for (int i = 0; allowed[i]; i++) {
				if (i)
					luaL_addstring(&b, ", ");
				luaL_addstring(&b, allowed[i]);
			}
			luaL_pushresult(&b);
			const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
			luaL_error(L, "%s{}: unknown field %s%s%s (fields: %s)", decl,
				   key ? "'" : "a non-string key", key ? key : "", key ? "'" : "",
				   lua_tostring(L, -1));
		}
	}
}

const char *km_field_string(lua_State *L, int idx, const char *decl, const char *field,
			    const char *def, bool required)
{
	lua_getfield(L, idx, field);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		if (required)
			luaL_error(L, "%s{}: field '%s' is required", decl, field);
		return def;
	}
	if (lua_type(L, -1) != LUA_TSTRING)
		luaL_error(L, "%s{}: '%s' must be a string, got %s", decl, field,
			   luaL_typename(L, -1));
	size_t len;
	const char *s = lua_tolstring(L, -1, &len);
	if (!strcmp(field, "name") && (len == 0 || len > KM_NAME_MAX))
		luaL_error(L, "%s{}: 'name' must be 1 to %d bytes long, got %d", decl,
			   KM_NAME_MAX, (int)len);
	if (strlen(s) != len || !km_utf8_valid(s, len))
		luaL_error(L, "%s{}: '%s' is not valid UTF-8 text", decl, field);
	/* one-line labels, printed as they are in the reports, `list` and
	 * the window: no ESC, BEL or CR to steer a terminal with */
	if (strcmp(field, "description") && strcmp(field, "placard") && km_has_control(s, len))
		luaL_error(L, "%s{}: '%s' must not contain control characters", decl, field);
	lua_pop(L, 1);	/* the string stays alive in the table */
	return s;
}

static lua_Integer to_integer(lua_State *L, int idx, const char *decl, const char *field,
			      bool *ok)
{
	*ok = true;
	if (lua_isinteger(L, idx))
		return lua_tointeger(L, idx);
	if (lua_type(L, idx) == LUA_TNUMBER) {
		lua_Number n = lua_tonumber(L, idx);
		if (isfinite(n) && n == floor(n) && n >= -9.2e18 && n <= 9.2e18)
			return (lua_Integer)n;
	}
	*ok = false;
	return 0;
}

lua_Integer km_field_int(lua_State *L, int idx, const char *decl, const char *field,
			 lua_Integer def, lua_Integer lo, lua_Integer hi)
{
	lua_getfield(L, idx, field);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		return def;
	}
	bool ok;
	lua_Integer v = to_integer(L, -1, decl, field, &ok);
	if (!ok)
		luaL_error(L, "%s{}: '%s' must be an integer, got %s", decl, field,
			   lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1));
	if (v < lo || v > hi)
		luaL_error(L, "%s{}: '%s' must be between %I and %I, got %I", decl, field,
			   (lua_Integer)lo, (lua_Integer)hi, v);
	lua_pop(L, 1);
	return v;
}

bool km_field_bool(lua_State *L, int idx, const char *decl, const char *field, bool def)
{
	lua_getfield(L, idx, field);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		return def;
	}
	if (!lua_isboolean(L, -1))
		luaL_error(L, "%s{}: '%s' must be true or false, got %s", decl, field,
			   luaL_typename(L, -1));
	bool v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return v;
}

static km_time time_at(lua_State *L, int idx, const char *what)
{
	bool ok;
	lua_Integer v = to_integer(L, idx, what, what, &ok);
	if (!ok) {
		if (lua_type(L, idx) == LUA_TNUMBER)
			luaL_error(L, "%s must be a whole number of nanoseconds, got %s", what,
				   lua_tostring(L, idx));
		luaL_error(L, "%s must be a duration in nanoseconds, got %s", what,
			   luaL_typename(L, idx));
	}
	if (v < 0)
		luaL_error(L, "%s must not be negative, got %I", what, v);
	if (v > KM_TIME_MAX)
		luaL_error(L, "%s is too large (%I ns; the most is %I)", what, v,
			   (lua_Integer)KM_TIME_MAX);
	return v;
}

km_time km_field_time(lua_State *L, int idx, const char *decl, const char *field,
		      km_time def)
{
	lua_getfield(L, idx, field);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		return def;
	}
	char what[96];
	snprintf(what, sizeof(what), "%s{}: '%s'", decl, field);
	km_time t = time_at(L, -1, what);
	lua_pop(L, 1);
	return t;
}

km_time km_check_time(lua_State *L, int idx, const char *what)
{
	/* the usual argument, an integer in range, without to_integer()'s
	 * layers; anything else takes time_at()'s checks and messages */
	if (lua_isinteger(L, idx)) {
		lua_Integer v = lua_tointeger(L, idx);
		if (v >= 0 && v <= KM_TIME_MAX)
			return v;
	}
	return time_at(L, idx, what);
}

int64_t km_check_int(lua_State *L, int idx, const char *what)
{
	bool ok;
	lua_Integer v = to_integer(L, idx, what, what, &ok);
	if (!ok) {
		if (lua_type(L, idx) == LUA_TNUMBER)
			luaL_error(L, "%s must be an integer, got %s", what, lua_tostring(L, idx));
		luaL_error(L, "%s must be an integer, got %s", what, luaL_typename(L, idx));
	}
	return v;
}
