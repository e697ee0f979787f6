-- Purpose: card value by the round a card was first acquired: win rate of the players whose
--          first acquisition of the card fell in that round, pooled over player counts with
--          their expected wins (sum of 1/n) as the fair share, and the per-game moments
--          (sum over games of w^2, w n, n^2 with w wins and n such players in the game) for
--          a game-clustered interval.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card.
-- Reads views: games, players; card_holdings (card_holdings.sql, made by runfolder.query).
-- Returns: card, round, players, wins, expected, fair, rate, win_ratio,
--          games, sum_w2, sum_wn, sum_n2.
WITH firsts AS (
    SELECT game_id, seat, card, first_round AS round
    FROM card_holdings
),
per_game AS (
    SELECT
        f.card,
        f.round,
        f.game_id,
        count(*)                   AS n,
        sum(p.win)                 AS w,
        sum(1.0 / g.n_players)     AS e
    FROM firsts AS f
    JOIN players AS p USING (game_id, seat)
    JOIN games AS g USING (game_id)
    GROUP BY f.card, f.round, f.game_id
)
SELECT
    card,
    round::BIGINT                  AS round,
    sum(n)::BIGINT                 AS players,
    sum(w)::DOUBLE                 AS wins,
    sum(e)::DOUBLE                 AS expected,
    sum(e) / sum(n)                AS fair,
    sum(w) / sum(n)                AS rate,
    sum(w) / sum(e)                AS win_ratio,
    count(*)::BIGINT               AS games,
    sum(w * w)::DOUBLE             AS sum_w2,
    sum(w * n)::DOUBLE             AS sum_wn,
    sum(n * n)::DOUBLE             AS sum_n2
FROM per_game
GROUP BY card, round
ORDER BY card, round;
