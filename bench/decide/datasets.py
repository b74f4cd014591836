"""The development data of the decisions benchmark, its fixed split and its stored vectors.

CLINC150 (``train``, ``val``, ``oos_*``) and Banking77 (``train``) are read from
``VIGIA_BENCH_DATA`` (default ``../shared/data`` next to the checkout). Vectors of every
text are computed once per encoder, as the product computes them (each text alone), and
kept in ``bench/.out/``.
"""

from __future__ import annotations

import collections
import csv
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

from vigia.decide.encoder import TextEncoder
from vigia.embeddings import Embedder, VectorCache, Vectors, get_embedder

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("VIGIA_BENCH_DATA", ROOT.parent / "shared" / "data"))
OUT = ROOT / "bench" / ".out"
SHOTS = 10

Pairs = list[tuple[str, str]]


def splits(seed: int = 7) -> dict[str, Pairs]:
    """The fixed partition of the development data (same seed, same parts)."""
    data = json.loads((DATA / "clinc150" / "train_val.json").read_text())
    rng = random.Random(seed)
    by_intent: dict[str, list[str]] = collections.defaultdict(list)
    for text, intent in data["train"]:
        by_intent[intent].append(text)
    parts: dict[str, Pairs] = collections.defaultdict(list)
    for intent in sorted(by_intent):
        texts = by_intent[intent][:]
        rng.shuffle(texts)
        parts["clinc_shots"] += [(t, intent) for t in texts[:SHOTS]]
        parts["clinc_calib"] += [(t, intent) for t in texts[SHOTS : 2 * SHOTS]]
    parts["clinc_val"] = [(t, i) for t, i in data["val"]]
    parts["clinc_oos_calib"] = [(t, i) for t, i in data["oos_train"]]
    parts["clinc_oos_val"] = [(t, i) for t, i in data["oos_val"]]
    banking: dict[str, list[str]] = collections.defaultdict(list)
    with (DATA / "banking77" / "train.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            banking[row["category"]].append(row["text"].strip())
    for intent in sorted(banking):
        texts = banking[intent][:]
        rng.shuffle(texts)
        parts["banking_shots"] += [(t, intent) for t in texts[:SHOTS]]
        parts["banking_eval"] += [(t, intent) for t in texts[SHOTS : SHOTS + 20]]
    return dict(parts)


class StoredEmbedder:
    """An encoder that answers from vectors computed before, embedding (and keeping) the rest."""

    def __init__(self, embedder: Embedder, known: dict[str, np.ndarray]) -> None:
        self.name, self.dim = embedder.name, embedder.dim
        self.known = known
        self._embedder = embedder

    def queries(self, texts: list[str]) -> Vectors:
        for text in texts:
            if text not in self.known:
                self.known[text] = self._embedder.queries([text])[0]
        return np.stack([self.known[t] for t in texts]).astype(np.float32)

    def passages(self, texts: list[str]) -> Vectors:
        raise NotImplementedError("the decision model embeds queries only")


def cached_encoder(names: list[str], texts: list[str]) -> TextEncoder:
    """The product's encoder with every text's vector loaded from (or saved to) bench/.out.

    It has a cache of its own: the product's cache stays cold for the latency figures.
    """
    OUT.mkdir(parents=True, exist_ok=True)
    encoders: dict[str, Embedder] = {}
    for name in names:
        path = OUT / f"decide-vectors-{name}.npz"
        known: dict[str, np.ndarray] = {}
        if path.exists():
            stored = np.load(path)
            known = dict(zip(stored["texts"].tolist(), stored["vectors"], strict=True))
        encoder = StoredEmbedder(get_embedder(name), known)  # type: ignore[arg-type]
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            started = time.perf_counter()
            print(f"embedding {len(missing)} texts with {name}…", file=sys.stderr)
            encoder.queries(missing)
            np.savez(path, texts=np.array(list(known)), vectors=np.stack(list(known.values())))
            print(f"  {time.perf_counter() - started:.0f} s", file=sys.stderr)
        encoders[name] = encoder
    return TextEncoder(encoders, VectorCache())


CLINC_DESCRIPTIONS = {
    "accept_reservations": "does a restaurant take reservations",
    "account_blocked": "my bank account is blocked or frozen",
    "alarm": "set an alarm to wake me up",
    "application_status": "status of my credit card application",
    "apr": "annual percentage rate on my card",
    "are_you_a_bot": "are you a real person or a bot",
    "balance": "how much money is in my bank account",
    "bill_balance": "how much do I owe on my bills",
    "bill_due": "when is my bill due",
    "book_flight": "book a plane ticket",
    "book_hotel": "book a hotel room",
    "calculator": "do a math calculation",
    "calendar": "what is on my calendar",
    "calendar_update": "add or remove an event in my calendar",
    "calories": "how many calories are in a food",
    "cancel": "cancel or stop what you are doing",
    "cancel_reservation": "cancel my restaurant reservation",
    "car_rental": "rent a car",
    "card_declined": "why was my card declined",
    "carry_on": "carry-on luggage rules for a flight",
    "change_accent": "change your voice accent",
    "change_ai_name": "change the assistant's name",
    "change_language": "change the language you speak",
    "change_speed": "talk faster or slower",
    "change_user_name": "change what you call me",
    "change_volume": "turn the volume up or down",
    "confirm_reservation": "confirm my reservation",
    "cook_time": "how long to cook a dish",
    "credit_limit": "what is my credit limit",
    "credit_limit_change": "raise my credit limit",
    "credit_score": "what is my credit score",
    "current_location": "where am I right now",
    "damaged_card": "my card is broken or damaged",
    "date": "what is today's date",
    "definition": "what does a word mean",
    "direct_deposit": "set up direct deposit of my paycheck",
    "directions": "directions to get to a place",
    "distance": "how far is a place",
    "do_you_have_pets": "do you have any pets",
    "exchange_rate": "currency exchange rate",
    "expiration_date": "when does my card expire",
    "find_phone": "help me find my lost phone",
    "flight_status": "is my flight on time or delayed",
    "flip_coin": "flip a coin heads or tails",
    "food_last": "how long does food keep in the fridge",
    "freeze_account": "freeze my bank account",
    "fun_fact": "tell me a fun fact",
    "gas": "how much gas is in my car tank",
    "gas_type": "what type of fuel my car needs",
    "goodbye": "goodbye, see you later",
    "greeting": "hello, how are you",
    "how_busy": "how busy or crowded is a place",
    "how_old_are_you": "how old are you",
    "improve_credit_score": "how to improve my credit score",
    "income": "how much money do I earn",
    "ingredient_substitution": "substitute one ingredient for another",
    "ingredients_list": "what ingredients are in a recipe",
    "insurance": "what health insurance benefits do I have",
    "insurance_change": "change my insurance plan",
    "interest_rate": "interest rate on my account",
    "international_fees": "fees for using my card abroad",
    "international_visa": "do I need a visa to travel to a country",
    "jump_start": "jump start a dead car battery",
    "last_maintenance": "when was my car last serviced",
    "lost_luggage": "the airline lost my luggage",
    "make_call": "call someone on the phone",
    "maybe": "maybe, I am not sure",
    "meal_suggestion": "suggest what to eat for dinner",
    "meaning_of_life": "what is the meaning of life",
    "measurement_conversion": "convert units of measurement",
    "meeting_schedule": "what meetings do I have scheduled",
    "min_payment": "minimum payment due on my card",
    "mpg": "fuel efficiency miles per gallon of my car",
    "new_card": "order a new credit card",
    "next_holiday": "when is the next holiday",
    "next_song": "skip to the next song",
    "no": "no, that is not right",
    "nutrition_info": "nutritional information of a food",
    "oil_change_how": "how to change the oil in my car",
    "oil_change_when": "when should I change my car oil",
    "order": "order or buy something online",
    "order_checks": "order new checks for my bank account",
    "order_status": "where is my order, track the package",
    "pay_bill": "pay my bill",
    "payday": "when do I get paid",
    "pin_change": "change my card PIN number",
    "play_music": "play music or a song",
    "plug_type": "what power plug adapter a country uses",
    "pto_balance": "how many vacation days do I have left",
    "pto_request": "request days off from work",
    "pto_request_status": "was my time off request approved",
    "pto_used": "how many vacation days have I used",
    "recipe": "recipe to cook a dish",
    "redeem_rewards": "redeem my credit card reward points",
    "reminder": "what are my reminders",
    "reminder_update": "set a reminder",
    "repeat": "repeat what you just said",
    "replacement_card_duration": "how long until my replacement card arrives",
    "report_fraud": "report a fraudulent charge on my card",
    "report_lost_card": "I lost my card or it was stolen",
    "reset_settings": "reset to factory settings",
    "restaurant_reservation": "make a restaurant reservation",
    "restaurant_reviews": "reviews and ratings of a restaurant",
    "restaurant_suggestion": "suggest a good restaurant",
    "rewards_balance": "how many reward points do I have",
    "roll_dice": "roll a dice",
    "rollover_401k": "roll over my 401k retirement account",
    "routing": "bank routing number",
    "schedule_maintenance": "schedule car maintenance service",
    "schedule_meeting": "schedule a meeting with someone",
    "share_location": "share my location with someone",
    "shopping_list": "what is on my shopping list",
    "shopping_list_update": "add or remove items on my shopping list",
    "smart_home": "turn on or off lights and smart home devices",
    "spelling": "how do you spell a word",
    "spending_history": "how much did I spend recently",
    "sync_device": "sync or pair with my phone",
    "taxes": "taxes I owe or my tax return",
    "tell_joke": "tell me a joke",
    "text": "send a text message",
    "thank_you": "thank you, thanks",
    "time": "what time is it",
    "timer": "set a timer",
    "timezone": "what time zone is a place in",
    "tire_change": "when to change my tires",
    "tire_pressure": "what is my tire pressure",
    "todo_list": "what is on my to-do list",
    "todo_list_update": "add or remove a task on my to-do list",
    "traffic": "how is the traffic on my route",
    "transactions": "recent transactions on my account",
    "transfer": "transfer money between accounts",
    "translate": "translate a phrase into another language",
    "travel_alert": "travel warnings or safety alerts for a country",
    "travel_notification": "tell my bank I am travelling abroad",
    "travel_suggestion": "suggest places to visit on a trip",
    "uber": "call an uber ride",
    "update_playlist": "add a song to my playlist",
    "user_name": "what is my name",
    "vaccines": "vaccines needed to travel to a country",
    "w2": "get my W-2 tax form",
    "weather": "what is the weather forecast",
    "what_are_your_hobbies": "what are your hobbies",
    "what_can_i_ask_you": "what can I ask you, what can you do",
    "what_is_your_name": "what is your name",
    "what_song": "what song is playing",
    "where_are_you_from": "where are you from",
    "whisper_mode": "switch to whisper mode, speak quietly",
    "who_do_you_work_for": "who do you work for",
    "who_made_you": "who made you, who created you",
    "yes": "yes, that is right",
}
