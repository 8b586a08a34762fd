"""The stud poker rules of play as the texts read them, shared by the stud engine tests."""




# --- The rules of each text, as read (to move into the rulesets once they carry game rules) -------------
# Where the text pays only the antes of a dealer without ace-king, the raise is read as returned (push): it
# is not paid ("seules mises initiales", "uma quantidade igual à aposta inicial"), and losing bets are
# collected only once the dealer plays ("Si la main du croupier possède ... le jeu se poursuit").
LU = {
    "dealer_qualifies_with": ["A", "K"],
    "raise_times_ante": 2,
    "outcomes": {
        "fold": {"ante": "lose", "citation": "Le croupier ramasse la mise, étale les cartes, les compte puis les brûle."},
        "dealer_not_qualified": {"ante": 1, "raise": "push", "citation": (
            "Si la main du croupier ne possède pas la combinaison As/roi ou mieux, il annonce «pas de jeu» et "
            "procède au paiement des seules mises initiales avant d’étaler, compter et brûler les cartes. "
            "Les mises initiales sont toujours payées à égalité.")},
        "player_wins": {"ante": 1, "raise": "paytable", "citation": (
            "procède au ramassage des chances perdantes et au paiement des mains gagnantes")},
        "dealer_wins": {"ante": "lose", "raise": "lose", "citation": (
            "La main d’un joueur qui est battue par celle du croupier perd à la fois la mise initiale et la mise "
            "de relance.")},
        "tie": {"ante": "push", "raise": "push",
                "citation": "Les mains qui ont obtenu un point égal à celui du croupier sont nulles."},
        # player_wins_unlisted: unstated. Art. 37-7 pays combinations from "1 paire" up; a high card that
        # beats the dealer's ace-king is paid nothing the text says.
    },
    "citations": {
        "dealer_qualifies_with": "Si la main du croupier possède la combinaison As/roi ou mieux, le jeu se poursuit.",
        "raise_times_ante": "En cas de relance, le joueur place le double de la mise initiale",
    },
}


STUD_PAYOUTS = {"une_paire": 1, "deux_paires": 2, "brelan": 3, "quinte": 5, "couleur": 8, "full": 10, "carre": 20,
                "quinte_flush": 50, "quinte_royale": 100}
