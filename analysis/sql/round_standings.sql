-- Purpose: every player's standing at the end of every round, the base of the lead-change and
--          comeback queries (analysis/rounds.py keeps it as the temporary table `standings`).
--          The lead is unique when one player alone has the top score; tied leaders have no
--          `leader` (NULL) and a deficit of 0.
-- Parameters: $max_game (BIGINT): only games with game_id < $max_game (bounds the time on huge runs).
-- Reads views: rounds, games, players.
-- Returns: game_id, seat, round, score, n_players, last_round (games.rounds), top,
--          unique_lead, leader, deficit (top - score), win (the player's final win share).
WITH tops AS (
    SELECT
        game_id,
        round,
        max(score, 2)             AS top2,     -- the two highest scores, highest first
        arg_max(seat, score)      AS top_seat  -- meaningful only when the lead is unique
    FROM rounds
    WHERE game_id < $max_game
    GROUP BY game_id, round
),
leads AS (
    SELECT
        game_id,
        round,
        top2[1]                                    AS top,
        (len(top2) = 1 OR top2[1] > top2[2])       AS unique_lead,
        top_seat
    FROM tops
)
SELECT
    r.game_id,
    r.seat::BIGINT                                          AS seat,
    r.round::BIGINT                                         AS round,
    r.score::BIGINT                                         AS score,
    g.n_players::BIGINT                                     AS n_players,
    g.rounds::BIGINT                                        AS last_round,
    l.top::BIGINT                                           AS top,
    l.unique_lead,
    CASE WHEN l.unique_lead THEN l.top_seat::BIGINT END     AS leader,
    (l.top - r.score)::BIGINT                               AS deficit,
    p.win
FROM rounds AS r
JOIN leads AS l USING (game_id, round)
JOIN games AS g USING (game_id)
JOIN players AS p ON p.game_id = r.game_id AND p.seat = r.seat
