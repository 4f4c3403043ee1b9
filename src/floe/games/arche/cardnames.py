"""The placeholder deck's card names, marked for the catalogs (context ``card``): ``Deck.name`` reads a
card's name in the reader's language through them. ``tests/games/arche/test_arche_card_names.py`` checks this
list is the names of ``cards.csv``, and that every language names every card."""

from __future__ import annotations

from floe.core.i18n import NC_

CARD_NAMES = (
    NC_("card", "Brontosaurus"),  # Bronto
    NC_("card", "Tyrannosaurus"),  # Tyranno
    NC_("card", "Elephant"),  # Elefant
    NC_("card", "Rhinoceros"),  # Nashorn
    NC_("card", "Hippopotamus"),  # Nilpferd
    NC_("card", "Mammoth"),  # Mammut
    NC_("card", "Walrus"),  # Walross
    NC_("card", "Giraffe"),  # Giraffe
    NC_("card", "Polar bear"),  # Eisbär
    NC_("card", "Moose"),  # Elch
    NC_("card", "Bison"),  # Bison
    NC_("card", "Cow"),  # Kuh
    NC_("card", "Horse"),  # Pferd
    NC_("card", "Camel"),  # Kamel
    NC_("card", "Donkey"),  # Esel
    NC_("card", "Sheep"),  # Schaf
    NC_("card", "Reindeer"),  # Rentier
    NC_("card", "Pig"),  # Schwein
    NC_("card", "Goat"),  # Ziege
    NC_("card", "Chicken"),  # Huhn
    NC_("card", "Dog"),  # Hund
    NC_("card", "Hedgehog"),  # Igel
    NC_("card", "Fox"),  # Fuchs
    NC_("card", "Marmot"),  # Murmeltier
    NC_("card", "Okapi"),  # Okapi
    NC_("card", "Zebra"),  # Zebra
    NC_("card", "Roe deer"),  # Reh
    NC_("card", "Gazelle"),  # Gazelle
    NC_("card", "Kangaroo"),  # Känguru
    NC_("card", "Hare"),  # Hase
    NC_("card", "Penguin"),  # Pinguin
    NC_("card", "Mouse"),  # Maus
    NC_("card", "Squirrel"),  # Eichhörnchen
    NC_("card", "Manatee"),  # Seekuh
    NC_("card", "Seal"),  # Robbe
    NC_("card", "Tortoise"),  # Schildkröte
    NC_("card", "Sloth"),  # Faultier
    NC_("card", "Koala"),  # Koala
    NC_("card", "Badger"),  # Dachs
    NC_("card", "Toad"),  # Kröte
    NC_("card", "Chameleon"),  # Chamäleon
    NC_("card", "Caterpillar"),  # Raupe
    NC_("card", "Snail"),  # Schnecke
    NC_("card", "Chimpanzee"),  # Schimpanse
    NC_("card", "Skunk"),  # Stinktier
    NC_("card", "Mosquito"),  # Moskito
    NC_("card", "Spider"),  # Spinne
    NC_("card", "Hay"),  # Heu
    NC_("card", "Grain"),  # Korn
    NC_("card", "Nuts"),  # Nüsse
    NC_("card", "Bananas"),  # Bananen
    NC_("card", "Dates"),  # Datteln
    NC_("card", "Mangoes"),  # Mangos
    NC_("card", "Cabbage"),  # Kohl
    NC_("card", "Turnips"),  # Rüben
)
