-- Purpose (Dragon Brew): where each race's Victory Points come from (judges, beer profits,
--          quests) and its mean beers brewed, judges won, ribbons and final gold, all player
--          counts together.
-- Parameters: none.
-- Reads views: players.
-- Returns: faction, games, score, vp_judges, vp_profit, vp_quests, beers_brewed, judges_won, ribbons, gold.
SELECT
    faction::VARCHAR                  AS faction,
    count(*)::BIGINT                  AS games,
    avg(score)::DOUBLE                AS score,
    avg(vp_judges)::DOUBLE            AS vp_judges,
    avg(vp_profit)::DOUBLE            AS vp_profit,
    avg(vp_quests)::DOUBLE            AS vp_quests,
    avg(beers_brewed)::DOUBLE         AS beers_brewed,
    avg(judges_won)::DOUBLE           AS judges_won,
    avg(ribbons)::DOUBLE              AS ribbons,
    avg(gold)::DOUBLE                 AS gold
FROM players
GROUP BY faction
ORDER BY score DESC;
