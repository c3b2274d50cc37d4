import ParlorLoad
