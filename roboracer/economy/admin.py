from django.contrib import admin

from roboracer.economy.models import ModulePrice, PricePoint


@admin.register(ModulePrice)
class ModulePriceAdmin(admin.ModelAdmin):
    list_display = ("course", "module", "price", "updated_at")
    list_filter = ("module",)
    search_fields = ("course__slug", "course__name", "module")
    list_select_related = ("course",)
    ordering = ("course__slug", "module")


@admin.register(PricePoint)
class PricePointAdmin(admin.ModelAdmin):
    list_display = ("id", "course", "game", "turn", "at")
    search_fields = ("course__slug",)
    list_select_related = ("course",)
    readonly_fields = ("course", "game", "turn", "purchases", "prices", "at")
