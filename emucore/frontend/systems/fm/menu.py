"""The main menu (``Main_RunMenu``'s loaded menu). Opening Free Duel, Build Deck, Library,
Campaign or Password switches the main loop to that mode (emucore.fm.mainloop): the
screen's first frame is the mode's reset pass, and so is the menu's first frame back. Trade
and Two Players first choose the second save inside the menu's mode
(``SaveData_UpdateLoadPair`` runs in ``Main_RunMenu``); their screens enter their modes."""

from __future__ import annotations

from emucore.fm import mainloop, story
from emucore.frontend.app import App, Screen
from emucore.frontend.framebuffer import Framebuffer
from emucore.frontend.systems.fm.common import FmScreen, menu_tick
from emucore.frontend.widgets import Menu

ITEMS = ("Free Duel", "Campaign", "Build Deck", "Library", "Two Players", "Save", "Controls",
         "Password", "Trade", "Title")
MODE_OF = {"Free Duel": mainloop.FREE_DUEL, "Campaign": mainloop.CAMPAIGN,
           "Build Deck": mainloop.BUILD_DECK, "Library": mainloop.LIBRARY,
           "Password": mainloop.PASSWORD}


class MainMenu(FmScreen):
    cursor = 0

    def enter(self, app: App) -> None:
        self.menu = Menu(ITEMS, cursor=self.cursor, cancellable=False)

    def update(self, app: App) -> Screen | None:
        menu_tick(app, self.game)
        choice = self.menu.update(app)
        if choice is None:
            return self
        self.cursor = choice
        return self._open(app, ITEMS[choice])

    def _open(self, app: App, item: str) -> Screen:
        from emucore.frontend.systems.fm import campaign, deckbuild, freeduel, library, title
        game = self.game
        if item in MODE_OF:
            game.enter(MODE_OF[item])
        if item == "Free Duel":
            return freeduel.FreeDuelSelect(game, self)
        if item == "Campaign":
            return campaign.CampaignScreen(game, self)
        if item == "Build Deck":
            return deckbuild.BuildDeck(game, self)
        if item == "Library":
            return library.Library(game, self)
        if item == "Two Players":
            from emucore.frontend.systems.fm.trade import DUEL, SecondSave
            return SecondSave(game, self, DUEL)
        if item == "Controls":
            from emucore.frontend.controls import ControlsScreen
            return ControlsScreen(self)
        if item == "Password":
            from emucore.frontend.systems.fm.password import PasswordScreen
            return PasswordScreen(game, self)
        if item == "Trade":
            from emucore.frontend.systems.fm.trade import TRADE, SecondSave
            return SecondSave(game, self, TRADE)
        if item == "Save":
            game.save()
            app.notify(game.save_file.report(f"Saved to {game.save_file.path}"))
            return self
        return title.TitleScreen(game)

    def draw(self, app: App, fb: Framebuffer) -> None:
        fb.clear(app.colour("bg"))
        fb.text(16, 14, "MAIN MENU", app.colour("highlight"), app.colour("black"))
        self.menu.draw(app, fb, 16, 30, 120)
        data = self.game.data
        wins = sum(w for w, _ in data["records"].values())
        losses = sum(lost for _, lost in data["records"].values())
        path = self.game.story_path()
        lines = (f"Name {data.get('name') or '-'}", f"Starchips {data['starchips']}",
                 f"Cards {sum(data['trunk'].values())}", f"Wins {wins}  Losses {losses}",
                 "Story over" if story.is_over(path) else f"Story: {len(path)} duels passed")
        for i, line in enumerate(lines):
            fb.text(160, 34 + i * 12, line, app.colour("text"))
