"""Urgency levels derived from intent labels: the ordinal (scale) dev task.

No public ordinal set is in the dev data, so the levels come from the intents of Banking77
and CLINC150 by a fixed mapping, written once before any model was run on it, with the
rule a support desk would apply:

- 2 ``high``: money or security at risk now (stolen or compromised card, a payment the
  customer does not recognise, a card kept by an ATM, a blocked account, fraud).
- 1 ``medium``: something the customer needs is not working or is stuck (declined, failed,
  pending, not arrived), or a task with a deadline.
- 0 ``low``: information, how-to, settings and chit-chat.

Intents that could sit in two levels are left out. Rows are balanced: the same number per
level (the smallest level's count), drawn with a fixed seed.
"""

from __future__ import annotations

import random

from bench.decide.datasets import Pairs

from vigia.language import word_set

HIGH = word_set(
    """
    compromised_card lost_or_stolen_card lost_or_stolen_phone card_payment_not_recognised
    cash_withdrawal_not_recognised direct_debit_payment_not_recognised card_swallowed
    transaction_charged_twice wrong_amount_of_cash_received
    report_fraud report_lost_card account_blocked freeze_account
    """
)
MEDIUM = word_set(
    """
    card_not_working contactless_not_working virtual_card_not_working declined_card_payment
    declined_cash_withdrawal declined_transfer failed_transfer top_up_failed top_up_reverted
    pending_card_payment pending_cash_withdrawal pending_top_up pending_transfer pin_blocked
    transfer_not_received_by_recipient balance_not_updated_after_bank_transfer
    balance_not_updated_after_cheque_or_cash_deposit Refund_not_showing_up
    unable_to_verify_identity card_arrival
    card_declined damaged_card lost_luggage jump_start find_phone bill_due pay_bill
    flight_status replacement_card_duration order_status
    """
)
LOW = word_set(
    """
    age_limit apple_pay_or_google_pay atm_support automatic_top_up card_acceptance
    card_delivery_estimate card_linking change_pin country_support disposable_card_limits
    edit_personal_details exchange_rate exchange_via_app fiat_currency_support
    get_disposable_virtual_card get_physical_card getting_spare_card getting_virtual_card
    order_physical_card receiving_money supported_cards_and_currencies top_up_limits
    topping_up_by_card top_up_by_cash_or_cheque transfer_timing verify_my_identity
    visa_or_mastercard why_verify_identity
    fun_fact tell_joke what_are_your_hobbies do_you_have_pets how_old_are_you
    meaning_of_life flip_coin roll_dice greeting thank_you goodbye what_is_your_name
    where_are_you_from who_made_you restaurant_reviews travel_suggestion play_music
    next_song calories nutrition_info definition spelling recipe meal_suggestion
    change_accent change_ai_name change_speed change_volume whisper_mode what_song
    """
)
LEVELS = (LOW, MEDIUM, HIGH)


def urgency_rows(pairs: Pairs, seed: int) -> list[tuple[str, int]]:
    """The states whose intent has a level, as ``(text, level)``, balanced per level."""
    by_level: list[list[str]] = [[], [], []]
    for text, intent in pairs:
        for level, intents in enumerate(LEVELS):
            if intent in intents:
                by_level[level].append(text)
    rng = random.Random(seed)
    size = min(len(texts) for texts in by_level)
    rows = [(t, level) for level, texts in enumerate(by_level) for t in rng.sample(texts, size)]
    rng.shuffle(rows)
    return rows
