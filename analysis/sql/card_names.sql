-- Purpose: the cards acquired (or played) in the games used, sorted: the codes of
--          card_holder_cells.sql.
-- Parameters: $max_game - only games with game_id < $max_game are used;
--             $kinds - the event kinds that count as acquiring (or playing) a card.
-- Reads views: events.
-- Returns: card.
SELECT DISTINCT card
FROM events
WHERE game_id < $max_game AND list_contains($kinds, CAST(kind AS VARCHAR))
ORDER BY card;
