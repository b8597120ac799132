from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournaments import models


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "venue", "starts_on"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(models.Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "kind", "discipline", "discs_per_player"]
    list_filter = ["tournament", "kind", "discipline"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "first_name", "last_name", "club", "country", "tournament"]
    search_fields = ["first_name", "last_name", "club"]
    list_filter = ["tournament"]


admin.site.register(models.Team)


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "category", "seed", "checked_in", "withdrawn"]
    list_filter = ["category", "checked_in", "withdrawn"]


class PoolInline(admin.TabularInline):
    model = models.Pool
    extra = 0


@admin.register(models.Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["name", "category", "kind", "order", "advance_count"]
    inlines = [PoolInline]


class GameInline(admin.TabularInline):
    model = models.Game
    extra = 0


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "stage", "round_of_play", "board"]
    list_filter = ["stage"]
    inlines = [GameInline]


@admin.register(models.Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["game", "number", "points_a", "points_b", "twenties_a", "twenties_b"]


admin.site.register(models.Board)
