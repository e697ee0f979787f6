-- Purpose: card value by the round a card was first acquired: win rate of the players whose
--          first acquisition of the card fell in that round, pooled over player counts with
--          their expected wins (sum of 1/n) as the fair share.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card.
-- Reads views: games, players, events.
-- Returns: card, round, players, wins, expected, fair, rate, win_ratio.
WITH firsts AS (
    SELECT game_id, seat, card, min(round) AS round
    FROM events
    WHERE game_id < $max_game AND list_contains($kinds, CAST(kind AS VARCHAR))
    GROUP BY game_id, seat, card
)
SELECT
    f.card,
    f.round::BIGINT                        AS round,
    count(*)::BIGINT                       AS players,
    sum(p.win)::DOUBLE                     AS wins,
    sum(1.0 / g.n_players)::DOUBLE         AS expected,
    sum(1.0 / g.n_players) / count(*)      AS fair,
    sum(p.win) / count(*)                  AS rate,
    sum(p.win) / sum(1.0 / g.n_players)    AS win_ratio
FROM firsts AS f
JOIN players AS p USING (game_id, seat)
JOIN games AS g USING (game_id)
GROUP BY f.card, f.round
ORDER BY f.card, f.round;
