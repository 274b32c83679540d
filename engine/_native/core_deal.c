/* The deal's state machine, step for step as engine/deal.py (RULES.md §6–7): plays,
 * passes, the end of a trick, 接风, 报牌, the finishing order and the result; and random
 * playouts on it. */
#include <string.h>
#include "core_deal.h"

void deal_init(deal_t *d, const cset hands[4], int level, int leader, const rules_t *ru) {
    memset(d, 0, sizeof *d);
    for (int s = 0; s < 4; s++) {
        d->hands[s] = hands[s];
        d->counts[s] = cs_size(hands[s]);
        d->reported[s] = -1;
    }
    d->level = level;
    d->turn = leader;
    d->last = -1;
    d->trick_leader = leader;
    d->ru = *ru;
}

static int next_active(const deal_t *d, int seat) {
    int s = (seat + 1) & 3;
    while (cs_empty(d->hands[s])) s = (s + 1) & 3;
    return s;
}

static int finished(const deal_t *d, int seat) {
    for (int i = 0; i < d->nfinish; i++)
        if (d->finish[i] == seat) return 1;
    return 0;
}

static void end_deal(deal_t *d, int last) {
    d->ntricks++;
    int s = last;
    for (int i = 0; i < 3; i++) {
        s = (s + 1) & 3;
        if (!finished(d, s)) d->finish[d->nfinish++] = s;
    }
    d->over = 1;
    d->turn = -1;
}

void deal_apply_play(deal_t *d, const play_t *p) {
    int seat = d->turn;
    d->hands[seat] = cs_sub(d->hands[seat], p->cards);
    int left = d->counts[seat] -= p->n;
    if (left <= REPORT_LIMIT && d->reported[seat] < 0) d->reported[seat] = d->nactions;
    d->nactions++;
    d->tb = *p;
    d->has_tb = 1;
    d->last = seat;
    d->passes = 0;
    if (left == 0) {
        d->finish[d->nfinish++] = seat;
        if (cs_empty(d->hands[seat ^ 2])) {
            end_deal(d, seat);
            return;
        }
    }
    d->turn = next_active(d, seat);
}

void deal_apply_pass(deal_t *d) {
    int seat = d->turn, last = d->last;
    d->nactions++;
    int passes = d->passes + 1;
    int held = !cs_empty(d->hands[last]);
    int others = held ? 3 - d->nfinish : 4 - d->nfinish;
    if (passes >= others) {
        d->ntricks++;
        int leader = held ? last : (d->ru.jiefeng_next ? next_active(d, last) : last ^ 2);
        d->trick_leader = d->turn = leader;
        d->has_tb = 0;
        d->last = -1;
        d->passes = 0;
    } else {
        d->passes = passes;
        d->turn = next_active(d, seat);
    }
}

void deal_result_of(const deal_t *d, deal_result *r) {
    memcpy(r->finish, d->finish, sizeof r->finish);
    int first = d->finish[0], place = 0;
    for (int i = 0; i < 4; i++)
        if (d->finish[i] == (first ^ 2)) place = i + 1;
    r->levels = place == 2 ? (d->ru.plus4 ? 4 : 3) : place == 3 ? 2 : 1;
    r->double_down = place == 2;
}

int deal_check_play(const deal_t *d, cset cards, int type, int rank, play_t *p) {
    if (d->over) return D_OVER;
    if (cs_empty(cards)) return D_NO_CARDS;
    if (!cs_subset(cards, d->hands[d->turn])) return D_NOT_HELD;
    uint8_t t[32], r[32];
    int k = reading_keys(cards, d->level, &d->ru, t, r);
    p->cards = cards;
    p->n = (uint8_t)cs_size(cards);
    if (type >= 0) {
        int found = 0;
        for (int i = 0; i < k; i++)
            if (t[i] == type && r[i] == rank) found = 1;
        if (!found) return D_NOT_READING;
        p->type = (uint8_t)type;
        p->rank = (uint8_t)rank;
        if (d->has_tb && !combo_beats(p, &d->tb, d->level)) return D_NOT_BEATING;
        return D_OK;
    }
    if (!k) return D_NO_COMBO;
    int32_t best = -1;
    for (int i = 0; i < k; i++) {
        play_t c = {cards, t[i], r[i], p->n};
        if (d->has_tb && !combo_beats(&c, &d->tb, d->level)) continue;
        int32_t pw = combo_power(t[i], r[i], p->n, d->level);
        if (pw > best) {
            best = pw;
            *p = c;
        }
    }
    return best < 0 ? D_NOT_BEATING : D_OK;
}

static void add_card(cset *c, int id) {
    int k = id >> 1;
    if (k < 52) cs_add_field(c, k >> 2, 1u << (3 * (k & 3)));
    else c->w[2] += 1ull << (k == 52 ? SB_SHIFT : HR_SHIFT);
}

void shuffle_hands(rng_t *g, cset hands[4]) {
    int ids[108];
    for (int i = 0; i < 108; i++) ids[i] = i;
    for (int i = 107; i > 0; i--) {
        int j = (int)rng_below(g, (uint32_t)i + 1);
        int x = ids[i]; ids[i] = ids[j]; ids[j] = x;
    }
    memset(hands, 0, 4 * sizeof(cset));
    for (int i = 0; i < 108; i++) add_card(&hands[i / 27], ids[i]);
}

int random_deal(deal_t *d, rng_t *g, plist *scratch, logged *log, int cap) {
    int n = 0;
    while (!d->over) {
        scratch->n = 0;
        if (generate(d->hands[d->turn], d->level, d->has_tb ? &d->tb : NULL, &d->ru, 1, scratch) < 0)
            return -1;
        uint32_t m = (uint32_t)scratch->n + (d->has_tb ? 1u : 0u);
        uint32_t k = rng_below(g, m);
        if (log && n < cap) {
            log[n].k = (int)k;
            log[n].m = (int)m;
            if (k < scratch->n) log[n].play = scratch->v[k];
            else log[n].play.type = 255;
        }
        if (k < scratch->n) deal_apply_play(d, &scratch->v[k]);
        else deal_apply_pass(d);
        n++;
    }
    return n;
}
