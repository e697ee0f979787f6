-- Purpose (Homebrewers): where reputation comes from (Summerfest medals, Octoberfest medals,
--          judges, the rest: flavor tops, events, track spaces), by character and player count.
-- Parameters: none.
-- Reads views: games, players (faction, summerfest_rep, medal_rep, judge_rep, gold, powers_used).
-- Returns: n_players, faction, players, wins, score, summerfest_rep, medal_rep, judge_rep,
--          other_rep, octoberfest_golds, powers_used.
SELECT
    g.n_players::BIGINT                                         AS n_players,
    p.faction::VARCHAR                                          AS faction,
    count(*)::BIGINT                                            AS players,
    sum(p.win)::DOUBLE                                          AS wins,
    avg(p.score::DOUBLE)                                        AS score,
    avg(p.summerfest_rep::DOUBLE)                               AS summerfest_rep,
    avg(p.medal_rep::DOUBLE)                                    AS medal_rep,
    avg(p.judge_rep::DOUBLE)                                    AS judge_rep,
    avg((p.score - p.summerfest_rep - p.medal_rep - p.judge_rep)::DOUBLE) AS other_rep,
    avg(p.gold::DOUBLE)                                         AS octoberfest_golds,
    avg(p.powers_used::DOUBLE)                                  AS powers_used
FROM players AS p
JOIN games AS g USING (game_id)
GROUP BY g.n_players, p.faction::VARCHAR
ORDER BY n_players, faction;
