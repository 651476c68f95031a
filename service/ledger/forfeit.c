/* forfeit.c */
#include "ledger/forfeit.h"

#include <stdlib.h>

json_t *forfeit_result(const json_t *engine_result, uint32_t forfeited)
{
    json_t *result = json_deep_copy(engine_result);
    if (result == NULL)
        result = json_object();
    json_t *ranking = json_array();
    size_t i;
    const json_t *place;
    json_array_foreach(json_object_get(engine_result, "ranking"), i, place)
    {
        json_t *kept = json_array();
        size_t k;
        const json_t *seat;
        json_array_foreach(place, k, seat)
        {
            json_int_t s = json_integer_value(seat);
            if (s < 0 || s >= 32 || !(forfeited & (1u << s)))
                json_array_append(kept, (json_t *)seat);
        }
        if (json_array_size(kept) > 0)
            json_array_append_new(ranking, kept);
        else
            json_decref(kept);
    }
    json_t *last = json_array();
    for (int s = 0; s < 32; s++) {
        if (forfeited & (1u << s))
            json_array_append_new(last, json_integer(s));
    }
    json_t *seats = json_deep_copy(last);
    if (json_array_size(last) > 0)
        json_array_append_new(ranking, last);
    else
        json_decref(last);
    json_object_set_new(result, "ranking", ranking);
    json_object_set_new(result, "over", json_true());
    json_object_set_new(result, "forfeited", seats);
    return result;
}
