"""The console's texts of the users page, in Spanish and English (merged into the
catalogue)."""

from __future__ import annotations

USER_TEXTS: dict[str, tuple[str, str]] = {
    "nav.users": ("Usuarios", "Users"),
    "users.hint": (
        "Quién entra a este espacio y con qué rol. Deshabilitar o cambiar la contraseña "
        "cierra todas las sesiones de esa persona.",
        "Who works in this workspace and with which role. Disabling or setting a password "
        "ends every session of that person.",
    ),
    "users.name": ("Usuario", "User"),
    "users.role": ("Rol", "Role"),
    "users.state": ("Estado", "State"),
    "users.since": ("Creado", "Created"),
    "users.active": ("activo", "active"),
    "users.disabled": ("deshabilitado", "disabled"),
    "users.you": ("vos", "you"),
    "users.change_role": ("Cambiar rol", "Change role"),
    "users.disable": ("Deshabilitar", "Disable"),
    "users.enable": ("Habilitar", "Enable"),
    "users.confirm_disable": (
        "¿Deshabilitar a esta persona? No puede entrar hasta que la habiliten de nuevo.",
        "Disable this person? They cannot log in until enabled again.",
    ),
    "users.new_password": ("Contraseña nueva", "New password"),
    "users.reset_password": ("Cambiar contraseña", "Set password"),
    "users.new": ("Nuevo usuario", "New user"),
    "users.password": ("Contraseña", "Password"),
    "users.create": ("Crear usuario", "Create user"),
    "users.created": ("Usuario creado:", "User created:"),
    "users.role_changed": ("Rol cambiado:", "Role changed:"),
    "users.disabled_notice": ("Usuario deshabilitado:", "User disabled:"),
    "users.enabled_notice": ("Usuario habilitado:", "User enabled:"),
    "users.password_set": ("Contraseña cambiada:", "Password set:"),
    "users.none": ("Nadie tiene un rol aquí.", "Nobody has a role here."),
    "users.refused_role": ("Ese rol no existe.", "There is no such role."),
    "users.refused_owner": (
        "Solo quien es dueño puede dar el rol de dueño o cambiar a otro dueño.",
        "Only an owner may grant the owner role or change another owner.",
    ),
    "users.refused_self": (
        "No podés cambiar tu propio rol ni deshabilitarte.",
        "You cannot change your own role or disable yourself.",
    ),
    "users.refused_elsewhere": (
        "Esta persona también trabaja en espacios que no administrás: su cuenta la cambia "
        "quien administra todos ellos.",
        "This person also works in workspaces you do not run: their account is changed by "
        "whoever runs all of them.",
    ),
}
