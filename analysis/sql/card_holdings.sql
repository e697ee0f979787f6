-- Purpose: one row per (game, seat, card) that a player acquired (or played) in the games
--          used, with the round of the first such event and how many there were: the
--          grouping the card tables share (card_names, card_holder_cells, card_value,
--          card_round read it). Grouping the event rows is most of each of those queries'
--          time, so runfolder.query makes this table once per connection and parameters.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card.
-- Reads views: events.
-- Makes: temporary table card_holdings (game_id, seat, card, first_round, n_events).
CREATE OR REPLACE TEMP TABLE card_holdings AS
SELECT game_id, seat, card, min(round) AS first_round, count(*) AS n_events
FROM events
WHERE game_id < $max_game AND list_contains($kinds, CAST(kind AS VARCHAR))
GROUP BY game_id, seat, card;
