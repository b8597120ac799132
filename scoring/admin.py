from django.contrib import admin

from scoring.models import ShootOut, ShootOutScore


class ShootOutScoreInline(admin.TabularInline):
    model = ShootOutScore
    extra = 0


@admin.register(ShootOut)
class ShootOutAdmin(admin.ModelAdmin):
    list_display = ["stage", "order", "created_at"]
    inlines = [ShootOutScoreInline]
