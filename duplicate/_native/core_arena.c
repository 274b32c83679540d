/* The arena's hot text in C: the actionList of a seat's legal plays as the arena writes it
 * (arena/protocol.py's action_json, joined), and the heuristic agent's answer to an
 * `act play` message written as the arena writes it (arena/agent.py's split_act, _view,
 * the bot's choice and _index_in), without a Python object per play or per field.
 *
 * The agent's reader is deliberately narrow: the JSON subset the arena writes (no
 * whitespace, no escapes, ASCII, integers without fraction or exponent, the canonical card
 * tokens, type names and rank characters). Anything else, or a choice it cannot find in
 * the list, answers -1, and the agent takes its Python path, which reads every writing. */
#include <string.h>
#include <stdlib.h>
#include "core_py.h"
#include "core_plan.h"

static const char RANK_CH[] = "23456789TJQKABR";
static const char SUIT_CH[] = "SHCD";
static const char PASS_JSON[] = "[\"PASS\",\"PASS\",\"PASS\"]";
/* the longest action text: a type name, "JOKER", 10 cards of 5 characters, brackets */
#define PLAY_JSON_MAX 96

static char *put(char *o, const char *s) {
    size_t n = strlen(s);
    memcpy(o, s, n);
    return o + n;
}

static char *put_token(char *o, int *first, char a, char b) {
    if (!*first) *o++ = ',';
    *first = 0;
    *o++ = '"';
    *o++ = a;
    *o++ = b;
    *o++ = '"';
    return o;
}

/* the action of a play as compact JSON text (arena.protocol.action_json); its length */
static size_t play_json(const play_t *p, char *out) {
    char *o = out;
    o = put(o, "[\"");
    if (p->type == T_FOUR_KINGS) {
        o = put(o, "Bomb\",\"JOKER");
    } else {
        o = put(o, TYPE_NAMES[p->type]);
        o = put(o, "\",\"");
        *o++ = RANK_CH[p->rank];
    }
    o = put(o, "\",[");
    int first = 1;
    for (int r = 0; r < 13; r++) {
        unsigned f = cs_field(&p->cards, r);
        for (int s = 0; f && s < 4; s++, f >>= 3)
            for (unsigned c = f & 7; c; c--) o = put_token(o, &first, SUIT_CH[s], RANK_CH[r]);
    }
    for (int c = cs_sb(&p->cards); c > 0; c--) o = put_token(o, &first, 'S', 'B');
    for (int c = cs_hr(&p->cards); c > 0; c--) o = put_token(o, &first, 'H', 'R');
    o = put(o, "]]");
    return (size_t)(o - out);
}

static PyObject *ascii_str(const char *s, size_t n) {
    PyObject *u = PyUnicode_New((Py_ssize_t)n, 127);
    if (u) memcpy(PyUnicode_1BYTE_DATA(u), s, n);
    return u;
}

/* action_list(hand, level, to_beat, rules) -> (PlayList, text): every concrete legal play
 * and the entries of actionList as JSON text, joined by commas, PASS first when following */
static PyObject *f_action_list(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 4) return PyErr_Format(PyExc_TypeError, "action_list takes 4 arguments, got %zd", n);
    cset hand;
    int level;
    play_t tb;
    rules_t ru;
    if (py_to_cs(a[0], &hand, "hand") < 0 || py_level(a[1], &level) < 0) return NULL;
    int has_tb = a[2] != Py_None;
    if (has_tb && py_to_play(a[2], &tb, "play to beat", 1) < 0) return NULL;
    if (py_rules(a[3], &ru) < 0) return NULL;
    plist l = {0};
    int rc;
    char small[64 * (PLAY_JSON_MAX + 1)], *buf = NULL; /* most lists fit on the stack */
    size_t len = 0;
    /* a lead (tens of microseconds) lets other threads run; a follow is too short for it */
    PyThreadState *ts = has_tb ? NULL : PyEval_SaveThread();
    rc = generate(hand, level, has_tb ? &tb : NULL, &ru, 0, &l);
    if (rc == 0) {
        buf = l.n + 1 <= 64 ? small : malloc((l.n + 1) * (PLAY_JSON_MAX + 1));
        if (buf) {
            if (has_tb) len = (size_t)(put(buf, PASS_JSON) - buf);
            for (size_t i = 0; i < l.n; i++) {
                if (len) buf[len++] = ',';
                len += play_json(&l.v[i], buf + len);
            }
        }
    }
    if (ts) PyEval_RestoreThread(ts);
    if (rc < 0 || !buf) {
        plist_free(&l);
        return PyErr_NoMemory();
    }
    PyObject *text = ascii_str(buf, len);
    if (buf != small) free(buf);
    if (!text) {
        plist_free(&l);
        return NULL;
    }
    PyObject *pl = playlist_new(&l);
    if (!pl) {
        Py_DECREF(text);
        return NULL;
    }
    return Py_BuildValue("(NN)", pl, text);
}

/* ---- the agent's answer ------------------------------------------------------------------ */

typedef struct { const char *p, *end; int depth; } rd_t;

/* skip one JSON string of plain printable ASCII; 0 for anything else */
static int skip_string(rd_t *r) {
    if (r->p >= r->end || *r->p != '"') return 0;
    for (r->p++; r->p < r->end; r->p++) {
        unsigned char c = (unsigned char)*r->p;
        if (c == '"') {
            r->p++;
            return 1;
        }
        if (c == '\\' || c < 0x20 || c >= 0x7f) return 0;
    }
    return 0;
}

/* an integer as JSON writes it (no fraction, no exponent), within +-9999; 0 otherwise */
static int read_int(rd_t *r, int *out) {
    const char *p = r->p;
    int neg = 0, v = 0, digits = 0;
    if (p < r->end && *p == '-') neg = 1, p++;
    if (p >= r->end || *p < '0' || *p > '9') return 0;
    if (*p == '0' && p + 1 < r->end && p[1] >= '0' && p[1] <= '9') return 0;
    while (p < r->end && *p >= '0' && *p <= '9') {
        if (++digits > 4) return 0;
        v = 10 * v + (*p++ - '0');
    }
    if (p < r->end && (*p == '.' || *p == 'e' || *p == 'E')) return 0;
    r->p = p;
    *out = neg ? -v : v;
    return 1;
}

static int skip_literal(rd_t *r, const char *lit) {
    size_t n = strlen(lit);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, lit, n)) return 0;
    r->p += n;
    return 1;
}

static int skip_value(rd_t *r);

/* skip the rest of an array or object after its opening bracket */
static int skip_items(rd_t *r, char close, int keyed) {
    if (++r->depth > 8) return 0;
    if (r->p < r->end && *r->p == close) {
        r->p++;
        r->depth--;
        return 1;
    }
    for (;;) {
        if (keyed) {
            if (!skip_string(r) || r->p >= r->end || *r->p++ != ':') return 0;
        }
        if (!skip_value(r) || r->p >= r->end) return 0;
        char c = *r->p++;
        if (c == close) break;
        if (c != ',') return 0;
    }
    r->depth--;
    return 1;
}

static int skip_value(rd_t *r) {
    if (r->p >= r->end) return 0;
    int x;
    switch (*r->p) {
    case '"': return skip_string(r);
    case '[': r->p++; return skip_items(r, ']', 0);
    case '{': r->p++; return skip_items(r, '}', 1);
    case 'n': return skip_literal(r, "null");
    case 't': return skip_literal(r, "true");
    case 'f': return skip_literal(r, "false");
    default: return read_int(r, &x);
    }
}

/* a key: 1 and its text (without quotes) */
static int read_key(rd_t *r, const char **k, size_t *kn) {
    const char *s = r->p + 1;
    if (!skip_string(r)) return 0;
    *k = s;
    *kn = (size_t)(r->p - 1 - s);
    return r->p < r->end && *r->p++ == ':';
}

static int key_is(const char *k, size_t kn, const char *want) {
    return strlen(want) == kn && !memcmp(k, want, kn);
}

/* a card token as the arena writes it -> kind 0..53, else -1 */
static int token_kind(const char *s, size_t n) {
    if (n != 2) return -1;
    if (s[0] == 'S' && s[1] == 'B') return 52;
    if (s[0] == 'H' && s[1] == 'R') return 53;
    const char *su = memchr(SUIT_CH, s[0], 4), *ra = memchr(RANK_CH, s[1], 13);
    if (!su || !ra || !s[0] || !s[1]) return -1;
    return 4 * (int)(ra - RANK_CH) + (int)(su - SUIT_CH);
}

/* a list of card tokens -> cset (every count at most 2); 0 for anything else */
static int read_cards(rd_t *r, cset *out) {
    int counts[54] = {0};
    if (r->p >= r->end || *r->p++ != '[') return 0;
    if (r->p < r->end && *r->p == ']') {
        r->p++;
    } else {
        for (;;) {
            const char *s = r->p + 1;
            if (!skip_string(r)) return 0;
            int k = token_kind(s, (size_t)(r->p - 1 - s));
            if (k < 0 || ++counts[k] > 2 || r->p >= r->end) return 0;
            char c = *r->p++;
            if (c == ']') break;
            if (c != ',') return 0;
        }
    }
    cset c = {{0, 0, 0}};
    for (int k = 0; k < 52; k++)
        if (counts[k]) cs_add_field(&c, k >> 2, (uint64_t)counts[k] << (3 * (k & 3)));
    c.w[2] += ((uint64_t)counts[52] << SB_SHIFT) + ((uint64_t)counts[53] << HR_SHIFT);
    *out = c;
    return 1;
}

/* a string value: 1 and its text */
static int read_str(rd_t *r, const char **s, size_t *n) {
    const char *b = r->p + 1;
    if (!skip_string(r)) return 0;
    *s = b;
    *n = (size_t)(r->p - 1 - b);
    return 1;
}

/* publicInfo: the first four entries' "rest" (the last one of each object) */
static int read_public(rd_t *r, int counts[4]) {
    if (r->p >= r->end || *r->p++ != '[') return 0;
    for (int i = 0; i < 4; i++) {
        if (i && (r->p >= r->end || *r->p++ != ',')) return 0;
        if (r->p >= r->end || *r->p++ != '{') return 0;
        int rest = -1;
        for (;;) {
            const char *k;
            size_t kn;
            if (!read_key(r, &k, &kn)) return 0;
            if (key_is(k, kn, "rest")) {
                if (!read_int(r, &rest)) return 0;
            } else if (!skip_value(r)) {
                return 0;
            }
            if (r->p >= r->end) return 0;
            char c = *r->p++;
            if (c == '}') break;
            if (c != ',') return 0;
        }
        if (rest < 0 || rest > 108) return 0;
        counts[i] = rest;
    }
    if (r->p < r->end && *r->p == ',') {
        r->p++;
        return skip_items(r, ']', 0);
    }
    return r->p < r->end && *r->p++ == ']';
}

/* greaterAction: 1 with *has = 0 for no play to beat ([null, null, null], null, [], a
 * PASS), *has = 1 and *p for a play; 0 for anything the Python path must judge */
static int read_action(rd_t *r, int level, const rules_t *ru, play_t *p, int *has) {
    *has = 0;
    if (skip_literal(r, "null")) return 1;
    if (r->p >= r->end || *r->p != '[') return 0;
    rd_t save = *r;
    r->p++;
    if (r->p < r->end && *r->p == ']') {
        r->p++;
        return 1;
    }
    int all_null = 1;
    for (;;) {
        if (!skip_literal(r, "null")) {
            all_null = 0;
            break;
        }
        if (r->p >= r->end) return 0;
        char c = *r->p++;
        if (c == ']') break;
        if (c != ',') return 0;
    }
    if (all_null) return 1;
    *r = save;
    r->p++;
    const char *t, *k;
    size_t tn, kn;
    if (!read_str(r, &t, &tn)) return 0;
    if (key_is(t, tn, "PASS")) { /* a PASS, whatever follows */
        *r = save;
        return skip_value(r);
    }
    if (r->p >= r->end || *r->p++ != ',' || !read_str(r, &k, &kn) || r->p >= r->end || *r->p++ != ',')
        return 0;
    int type = -1, rank = -1;
    if (key_is(t, tn, "Bomb") && key_is(k, kn, "JOKER")) {
        type = T_FOUR_KINGS;
        rank = R_SB;
    } else {
        for (int i = 0; i < T_FOUR_KINGS; i++)
            if (key_is(t, tn, TYPE_NAMES[i])) type = i;
        if (kn == 1 && memchr(RANK_CH, k[0], 15) && k[0]) rank = (int)((const char *)memchr(RANK_CH, k[0], 15) - RANK_CH);
    }
    if (type < 0 || rank < 0) return 0;
    cset c;
    if (!read_cards(r, &c) || r->p >= r->end || *r->p++ != ']' || cs_empty(c)) return 0;
    uint8_t ts[32], rs[32];
    int nk = reading_keys(c, level, ru, ts, rs), found = 0;
    for (int i = 0; i < nk; i++)
        if (ts[i] == type && rs[i] == rank) found = 1;
    if (!found) return 0;
    p->cards = c;
    p->type = (uint8_t)type;
    p->rank = (uint8_t)rank;
    p->n = (uint8_t)cs_size(c);
    *has = 1;
    return 1;
}

static const char *find(const char *h, size_t hn, const char *s, size_t sn) {
    if (sn > hn) return NULL;
    for (const char *p = h, *last = h + (hn - sn); p <= last; p++) {
        p = memchr(p, s[0], (size_t)(last - p) + 1);
        if (!p) return NULL;
        if (!memcmp(p, s, sn)) return p;
    }
    return NULL;
}

static const char *rfind(const char *h, size_t hn, const char *s, size_t sn) {
    if (sn > hn) return NULL;
    for (const char *p = h + (hn - sn);; p--) {
        if (!memcmp(p, s, sn)) return p;
        if (p == h) return NULL;
    }
}

static const char ACT_PLAY[] = "{\"type\":\"act\",\"stage\":\"play\",";
static const char ACTION_LIST[] = ",\"actionList\":[";
static const char INDEX_RANGE[] = "],\"indexRange\":";
#define LIT(s) (s), (sizeof(s) - 1)

/* the index of the heuristic bot's play in the message's actionList, -1 when the Python
 * path must answer */
static long agent_index(const char *data, size_t len, int pos, const rules_t *ru) {
    if (len < sizeof ACT_PLAY - 1 || memcmp(data, LIT(ACT_PLAY))) return -1;
    const char *cut = find(data, len, LIT(ACTION_LIST));
    const char *end = rfind(data, len, LIT(INDEX_RANGE));
    if (!cut || !end || end < cut + sizeof ACTION_LIST - 2) return -1;
    /* the fields before actionList: one object, closed where actionList begins */
    rd_t r = {data, cut, 0};
    const char *hand_at = NULL, *public_at = NULL, *rank_at = NULL, *gpos_at = NULL, *gact_at = NULL;
    if (*r.p++ != '{') return -1;
    int heads = 0; /* "type" and "stage": a second one would change the message's kind */
    for (;;) {
        const char *k;
        size_t kn;
        if (!read_key(&r, &k, &kn)) return -1;
        if ((key_is(k, kn, "type") || key_is(k, kn, "stage")) && ++heads > 2) return -1;
        const char **slot = key_is(k, kn, "handCards") ? &hand_at
                            : key_is(k, kn, "publicInfo") ? &public_at
                            : key_is(k, kn, "curRank") ? &rank_at
                            : key_is(k, kn, "greaterPos") ? &gpos_at
                            : key_is(k, kn, "greaterAction") ? &gact_at : NULL;
        if (slot) *slot = r.p;
        if (!skip_value(&r)) return -1;
        if (r.p == cut) break;
        if (*r.p++ != ',') return -1;
    }
    if (!hand_at || !public_at || !rank_at) return -1;
    view_t v;
    v.ru = ru;
    v.seat = pos;
    rd_t f = {rank_at, cut, 0};
    const char *s;
    size_t sn;
    if (!read_str(&f, &s, &sn) || sn != 1 || !s[0] || !memchr(RANK_CH, s[0], 13)) return -1;
    v.level = (int)((const char *)memchr(RANK_CH, s[0], 13) - RANK_CH);
    f.p = hand_at;
    if (!read_cards(&f, &v.hand) || cs_empty(v.hand)) return -1;
    f.p = public_at;
    if (!read_public(&f, v.counts)) return -1;
    v.counts[pos] = cs_size(v.hand);
    int gpos = -1, has = 0;
    if (gpos_at) {
        f.p = gpos_at;
        if (!read_int(&f, &gpos)) return -1;
    }
    play_t tb;
    v.tb = NULL;
    v.by = -1;
    if (gpos >= 0 && gpos <= 3 && gpos != pos) {
        if (!gact_at) return -1;
        f.p = gact_at;
        if (!read_action(&f, v.level, ru, &tb, &has)) return -1;
        if (has) {
            v.tb = &tb;
            v.by = gpos;
        }
    }
    play_t out;
    int rc = heuristic_act(&v, &out);
    if (rc < 0) return -1;
    char text[PLAY_JSON_MAX];
    size_t tn = rc ? play_json(&out, text) : (size_t)(put(text, PASS_JSON) - text);
    /* actionList's text: from its "[" to the "]" before indexRange */
    const char *list = cut + sizeof ACTION_LIST - 2;
    size_t ln = (size_t)(end + 1 - list);
    const char *at = find(list, ln, text, tn);
    if (!at) return -1;
    long index = 0;
    for (const char *p = list; (p = find(p, (size_t)(at + 1 - p), "],[", 3)) != NULL; p += 3) index++;
    return index;
}

/* agent_index(data, pos, rules) -> int: the heuristic agent's answer to an `act play`
 * message as the arena writes it, -1 when the Python path must read it */
static PyObject *f_agent_index(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "agent_index takes 3 arguments, got %zd", n);
    if (!PyBytes_Check(a[0])) return PyErr_Format(PyExc_TypeError, "agent_index: data must be bytes");
    int overflow = 0;
    long pos = PyLong_Check(a[1]) ? PyLong_AsLongAndOverflow(a[1], &overflow) : -1;
    if (overflow || pos < 0 || pos > 3) {
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "agent_index: a position is 0..3");
    }
    rules_t ru;
    if (py_rules(a[2], &ru) < 0) return NULL;
    long index = agent_index(PyBytes_AS_STRING(a[0]), (size_t)PyBytes_GET_SIZE(a[0]), (int)pos, &ru);
    return PyLong_FromLong(index);
}

PyMethodDef ARENA_METHODS[] = {
    {"action_list", (PyCFunction)(void (*)(void))f_action_list, METH_FASTCALL,
     "action_list(hand, level, to_beat, rules) -> (PlayList, actionList entries as JSON text)"},
    {"agent_index", (PyCFunction)(void (*)(void))f_agent_index, METH_FASTCALL,
     "agent_index(data, pos, rules) -> the heuristic agent's index in an act play, or -1"},
    {NULL, NULL, 0, NULL}};
