/* The native core's tables, mirroring engine/_tables.py: computed once at import. */
#include "core.h"

uint8_t FIELD_COUNT[4096];
uint8_t FIELD_SUITS[4096];
int16_t FIELD_INDEX[4096];
uint16_t OPT_START[81][12];
uint16_t OPT_SUB[81 * 11 * 81];
uint8_t OPT_U[81 * 11 * 81];
uint16_t FIRST_SUB[81][11];
uint8_t LEVEL_ORDER[13][13];
uint8_t LEVEL_VALUE[13][15];
uint8_t POP13[8192];
cset WILDS[13][3];
window_t WIN_STRAIGHT[10], WIN_THREE_PAIR[12], WIN_TWO_TRIPS[13];

static int tables_ready;

static void windows(window_t *out, int length) {
    int i = 0;
    for (int low = -1; low <= 13 - length; low++, i++) {
        out[i].mask = 0;
        for (int k = 0; k < length; k++) {
            int p = low + k;
            int r = p == -1 ? 12 : p;
            out[i].ranks[k] = r;
            out[i].mask |= 1u << r;
        }
        out[i].rank = out[i].ranks[0];
    }
}

void core_tables_init(void) {
    if (tables_ready) return;
    int nvalid = 0;
    for (int f = 0; f < 4096; f++) {
        int c[4] = {f & 7, (f >> 3) & 7, (f >> 6) & 7, (f >> 9) & 7};
        FIELD_COUNT[f] = (uint8_t)(c[0] + c[1] + c[2] + c[3]);
        FIELD_SUITS[f] = (uint8_t)((c[0] ? 1 : 0) | (c[1] ? 2 : 0) | (c[2] ? 4 : 0) | (c[3] ? 8 : 0));
        FIELD_INDEX[f] = -1;
        if (c[0] <= 2 && c[1] <= 2 && c[2] <= 2 && c[3] <= 2) FIELD_INDEX[f] = (int16_t)nvalid++;
    }
    /* SUBS[f][k] in itertools.product order over range(c, -1, -1) per suit, S outermost;
     * each valid field has its own slab of 11 * 81 options, so offsets fit 16 bits */
    for (int f = 0; f < 4096; f++) {
        int idx = FIELD_INDEX[f];
        if (idx < 0) continue;
        int c[4] = {f & 7, (f >> 3) & 7, (f >> 6) & 7, (f >> 9) & 7};
        uint16_t subs[9][81];
        int nsub[9] = {0};
        for (int a = c[0]; a >= 0; a--)
            for (int b = c[1]; b >= 0; b--)
                for (int d = c[2]; d >= 0; d--)
                    for (int e = c[3]; e >= 0; e--) {
                        int k = a + b + d + e;
                        subs[k][nsub[k]++] = (uint16_t)(a | (b << 3) | (d << 6) | (e << 9));
                    }
        int have = FIELD_COUNT[f];
        for (int need = 0; need <= 10; need++) FIRST_SUB[idx][need] = subs[have < need ? have : need][0];
        size_t base = (size_t)idx * 11 * 81, p = 0;
        for (int need = 0; need <= 10; need++) {
            OPT_START[idx][need] = (uint16_t)p;
            int lo = need - 2 > 0 ? need - 2 : 0;
            int hi = have < need ? have : need;
            for (int cc = hi; cc >= lo; cc--)
                for (int j = 0; j < nsub[cc]; j++) {
                    OPT_SUB[base + p] = subs[cc][j];
                    OPT_U[base + p] = (uint8_t)(need - cc);
                    p++;
                }
        }
        OPT_START[idx][11] = (uint16_t)p;
    }
    for (int lv = 0; lv < 13; lv++) {
        int i = 0;
        for (int r = 0; r < 13; r++)
            if (r != lv) LEVEL_ORDER[lv][i++] = (uint8_t)r;
        LEVEL_ORDER[lv][12] = (uint8_t)lv;
        for (int r = 0; r < 15; r++)
            LEVEL_VALUE[lv][r] = (uint8_t)(r == lv ? 13 : (r < 13 ? r : r + 1));
    }
    for (int m = 0; m < 8192; m++) POP13[m] = (uint8_t)pc64((uint64_t)m);
    for (int lv = 0; lv < 13; lv++)
        for (int k = 0; k < 3; k++) {
            cset c = {{0, 0, 0}};
            cs_add_field(&c, lv, (uint64_t)k << 3);
            WILDS[lv][k] = c;
        }
    windows(WIN_STRAIGHT, 5);
    windows(WIN_THREE_PAIR, 3);
    windows(WIN_TWO_TRIPS, 2);
    tables_ready = 1;
}
